// What the person sets in the share sheet, in one hook: the sheet's parts all change the same
// draft, and Esc can keep it whole (the sheet opens with it again).
import { useState } from 'preact/hooks';
import type { ChannelRef, Snapshot } from '../../../preload/contract';
import { lastDestination } from './last-destination';

type Mode = 'preset' | 'channels';
type Preset = Snapshot['presets'][number];
type NamedRefs = (workspaceId: string, refs: readonly ChannelRef[]) => ChannelRef[];

/** What the person set in the sheet, kept when Esc closes it with files in it. */
export interface SheetDraft {
  mode: Mode;
  presetId: string;
  workspaceId: string;
  picked: ChannelRef[];
  thread: string;
  comment: string;
  commentEdited: boolean;
}

/** A message link's channel (`…/archives/C0123/p1700000000123456`). */
const LINKED_CHANNEL = /\/archives\/([A-Z0-9]+)\/p\d{16}/;

export function useShareDraft(snapshot: Snapshot, kept: SheetDraft | null | undefined) {
  const presets = snapshot.presets;
  // A new sheet starts where the last share went (last-destination.ts), else the default preset.
  const [last] = useState(() => (kept ? null : lastDestination(snapshot)));
  const lastPreset = last?.mode === 'preset' ? last.presetId : undefined;
  const firstPreset =
    presets.find((p) => p.id === (lastPreset ?? snapshot.defaultPresetId)) ?? presets[0];
  const [mode, setMode] = useState<Mode>(
    kept?.mode ?? last?.mode ?? (firstPreset ? 'preset' : 'channels'),
  );
  const [presetId, setPresetId] = useState(kept?.presetId ?? firstPreset?.id ?? '');
  const [workspaceId, setWorkspaceId] = useState(
    kept?.workspaceId ??
      (last?.mode === 'channels' ? last.workspaceId : undefined) ??
      firstPreset?.workspaceId ??
      snapshot.workspaces[0]?.id ??
      '',
  );
  const [picked, setPicked] = useState<ChannelRef[]>(
    kept?.picked ?? (last?.mode === 'channels' ? last.picked : []),
  );
  const [thread, setThread] = useState(kept?.thread ?? '');
  const [comment, setComment] = useState(kept?.comment ?? firstPreset?.comment ?? '');
  const [commentEdited, setCommentEdited] = useState(kept?.commentEdited ?? false);
  const draft: SheetDraft = { mode, presetId, workspaceId, picked, thread, comment, commentEdited };

  const choosePreset = (id: string) => {
    setPresetId(id);
    const next = presets.find((p) => p.id === id);
    if (next && !commentEdited) setComment(next.comment);
  };

  const editComment = (value: string) => {
    setComment(value);
    setCommentEdited(true);
  };

  const editThread = (value: string) => {
    setThread(value);
    // A message link names its channel: it becomes the destination if none is chosen.
    const channel = LINKED_CHANNEL.exec(value)?.[1];
    if (channel && mode === 'channels' && picked.length === 0) setPicked([{ id: channel }]);
  };

  // A preset of several channels cannot reply in one thread: the same destination as channels
  // to pick from, or just the thread's own channel when its link names one.
  const chooseThreadChannel = (preset: Preset | undefined, named: NamedRefs) => {
    if (!preset) return;
    const linked = LINKED_CHANNEL.exec(thread)?.[1];
    const refs = named(preset.workspaceId, preset.channels);
    const own = refs.find((r) => r.id === linked) ?? (linked ? { id: linked } : undefined);
    setWorkspaceId(preset.workspaceId);
    setPicked(own ? [own] : refs);
    setMode('channels');
    setTimeout(() => document.getElementById('share-channels')?.focus(), 0);
  };

  return {
    draft,
    setMode,
    setWorkspaceId,
    setPicked,
    choosePreset,
    editComment,
    editThread,
    chooseThreadChannel,
  };
}
