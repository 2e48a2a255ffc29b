// The share sheet's state and its one action: the draft, what the paths would send, what stops
// Share, and the Share call itself. Kept apart from the markup so each reads in one go.
import { useEffect, useState } from 'preact/hooks';
import { METADATA_UNREADABLE } from '../../../main/portable/metadata-refusal';
import type { ShareResult, Snapshot, View } from '../../../preload/contract';
import { api } from '../bridge';
import { useNamedRefs } from '../channel-names';
import { useEscape } from '../ui/use-escape';
import { useAction } from '../use-action';
import { forgetUnconfirmed } from './edited-images';
import { rememberDestination } from './last-destination';
import { useDescriptions, whatIsSent } from './path-descriptions';
import { type SheetDraft, useShareDraft } from './share-draft';
import { emptyQuestion, shareProblem } from './share-problem';

/** The preset or the picked channels, and their workspace, as the draft says now. */
function destinationOf(snapshot: Snapshot, draft: SheetDraft) {
  const preset = snapshot.presets.find((p) => p.id === draft.presetId);
  const byPreset = draft.mode === 'preset';
  const channels = byPreset ? (preset?.channels ?? []) : draft.picked;
  const workspace = snapshot.workspaces.find(
    (w) => w.id === (byPreset ? preset?.workspaceId : draft.workspaceId),
  );
  return { preset, channels, workspace };
}

/**
 * While the sheet is open with files for a workspace that has a token, main opens the share's
 * connections ahead (prepareShare). A connection nobody takes closes after a few seconds
 * (preconnect.ts WARM_MS), so it is asked again when the workspace, the file count or the
 * channels change: picking the channels is mostly the last step before Share. Main opens only
 * what is not warm already. Nothing depends on it, so a refusal is ignored.
 */
function useWarmConnections(workspaceId: string | undefined, files: number, channels: number) {
  useEffect(() => {
    if (workspaceId === undefined || files < 1) return;
    api()
      .prepareShare(workspaceId, files)
      .catch(() => {});
  }, [workspaceId, files, channels]);
}

export function useShareSheet(props: {
  snapshot: Snapshot;
  paths: string[];
  onClose: (next: View, draft?: SheetDraft, shareId?: string) => void;
  draft?: SheetDraft | null;
}) {
  const { snapshot, paths } = props;
  const named = useNamedRefs();
  const edit = useShareDraft(snapshot, props.draft);
  const { draft } = edit;
  const { mode, thread, comment } = draft;
  const [attempted, setAttempted] = useState(false);
  const [result, setResult] = useState<ShareResult | null>(null);
  const action = useAction();
  const { preset, channels, workspace } = destinationOf(snapshot, draft);
  const described = useDescriptions(paths, workspace?.id);
  const sent = whatIsSent(paths, described);
  useWarmConnections(workspace?.hasToken ? workspace.id : undefined, sent.files, channels.length);
  const [sendEmpty, setSendEmpty] = useState(false);
  // "Keep photo details", for this share only; it starts as the preference says.
  const [keepDetails, setKeepDetails] = useState(snapshot.preferences.keepMetadata);
  const question = emptyQuestion(sent.empties, sendEmpty);
  const problem = shareProblem({
    mode,
    paths: paths.length,
    files: sent.files,
    channels: channels.length,
    thread,
    hasWorkspace: workspace !== undefined,
    empties: sent.empties.length,
    emptyQuestion: question,
  });

  const submit = async (e?: Event) => {
    e?.preventDefault();
    setAttempted(true);
    if (problem || !workspace) return;
    // The sheet already says so beside its way out: Share goes there rather than say it again.
    if (!workspace.hasToken) {
      document.getElementById('share-no-token')?.focus();
      return;
    }
    // Paths the sheet shows as refused stay behind: the person has seen why.
    const shared = await shareNow(sent.paths, keepDetails, true);
    if (!shared) return;
    forgetUnconfirmed(paths);
    rememberDestination(
      mode === 'preset' && preset
        ? { mode: 'preset', presetId: preset.id }
        : { mode: 'channels', workspaceId: workspace.id, picked: channels },
    );
    ended(shared);
  };

  const shareNow = (sharePaths: string[], keepMetadata: boolean, withComment: boolean) => {
    if (!workspace) return Promise.resolve(undefined);
    const target =
      mode === 'preset' && preset
        ? { presetId: preset.id }
        : { workspaceId: workspace.id, channels: channels.map((c) => c.id) };
    return action.run(() =>
      api().share({
        target,
        comment: !withComment || comment.trim() === '' ? undefined : comment,
        paths: sharePaths,
        ...(thread.trim() !== '' ? { thread: thread.trim() } : {}),
        keepMetadata,
      }),
    );
  };

  const ended = (shared: ShareResult) => {
    if (shared.refused.length === 0) props.onClose('queue', undefined, shared.shareId);
    else setResult(shared);
  };

  /**
   * The files refused because their hidden details could not be removed safely (damaged), sent
   * as they are once the person chose so on the outcome; the comment goes with them only if
   * nothing of the share was queued before.
   */
  const sendKeepingDetails = async () => {
    if (!result) return;
    const damaged = result.refused.filter((r) => r.code === METADATA_UNREADABLE).map((r) => r.path);
    const again = await shareNow(damaged, true, result.items.length === 0);
    if (again) ended({ ...again, items: [...result.items, ...again.items] });
  };

  // Esc keeps a draft (files or a comment); Cancel throws it away.
  useEscape(
    () => props.onClose('drop', paths.length > 0 || comment.trim() !== '' ? draft : undefined),
    action.busy,
  );
  const threadClash = mode === 'preset' && thread.trim() !== '' && channels.length > 1;
  return {
    edit,
    draft,
    named,
    attempted,
    result,
    action,
    channels,
    workspace,
    described,
    sent,
    question,
    problem,
    submit,
    sendAnyway: () => setSendEmpty(true),
    keepDetails,
    setKeepDetails,
    sendKeepingDetails,
    chooseThreadChannel: threadClash ? () => edit.chooseThreadChannel(preset, named) : null,
  };
}
