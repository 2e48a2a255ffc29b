// The sheet's fields: where the files go (a preset, or a workspace and its channels), the
// comment and the thread. They hold no state of their own: the draft (share-draft.ts) does, so
// switching between a preset and channels loses nothing.
import { shortcutLabel } from '../../../main/portable/shortcut-label';
import type { ChannelRef, Snapshot, View } from '../../../preload/contract';
import { isMac } from '../platform';
import { signedIn, tokenState } from '../token-state';
import { ChannelPicker } from '../ui/channel-picker';
import { Notice } from '../ui/notice';
import { WorkspaceSelect } from '../ui/workspace-select';
import type { SheetDraft } from './share-draft';

export function SendToGroup(props: {
  snapshot: Snapshot;
  draft: SheetDraft;
  /** Said once Share was tried with no channel picked. */
  channelError: boolean;
  onMode: (mode: SheetDraft['mode']) => void;
  onPreset: (id: string) => void;
  onWorkspace: (id: string) => void;
  onPicked: (change: (now: ChannelRef[]) => ChannelRef[]) => void;
}) {
  const { snapshot, draft } = props;
  const { mode, workspaceId } = draft;
  const presets = snapshot.presets;
  return (
    <fieldset class="group">
      <legend class="group__label">Send to</legend>
      <ModeSwitch mode={mode} presets={presets.length > 0} onMode={props.onMode} />
      {mode === 'preset' ? (
        <div class="field">
          <label for="share-preset" class="field__label">
            Preset
          </label>
          <select
            id="share-preset"
            class="input"
            value={draft.presetId}
            onChange={(e) => props.onPreset(e.currentTarget.value)}
          >
            {presets.map((p) => (
              <option key={p.id} value={p.id}>
                {p.id === snapshot.defaultPresetId ? `${p.name} (default)` : p.name}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <div class="field-row">
          <WorkspaceSelect
            id="share-workspace"
            workspaces={snapshot.workspaces}
            value={workspaceId}
            onChange={props.onWorkspace}
          />
          <ChannelPicker
            id="share-channels"
            label="Channels"
            workspaceId={workspaceId}
            tokenState={tokenState(snapshot.workspaces.find((w) => w.id === workspaceId))}
            signedIn={signedIn(snapshot.workspaces.find((w) => w.id === workspaceId))}
            tokenSaidNearby
            selected={draft.picked}
            invalid={props.channelError}
            onAdd={(ref) => props.onPicked((now) => [...now, ref])}
            onRemove={(id) => props.onPicked((now) => now.filter((c) => c.id !== id))}
          />
        </div>
      )}
    </fieldset>
  );
}

export function CommentField(props: {
  comment: string;
  onInput: (value: string) => void;
  /** The shortcut that shares from the comment. */
  onShare: () => void;
}) {
  return (
    <div class="field">
      <label for="share-comment" class="field__label">
        Comment <span class="muted">(optional)</span>
      </label>
      <textarea
        id="share-comment"
        class="input input--area"
        rows={3}
        value={props.comment}
        aria-describedby="share-comment-help"
        onInput={(e) => props.onInput(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) props.onShare();
        }}
      />
      <p id="share-comment-help" class="field__help">
        Posted with the files. {shortcutLabel('CommandOrControl+Enter', isMac)} shares.
      </p>
    </div>
  );
}

export function ThreadField(props: { thread: string; onInput: (value: string) => void }) {
  return (
    <div class="field">
      <label for="share-thread" class="field__label">
        Reply in thread <span class="muted">(optional)</span>
      </label>
      <input
        id="share-thread"
        class="input"
        value={props.thread}
        placeholder="https://…/archives/C0123/p1700000000123456"
        spellcheck={false}
        autocomplete="off"
        aria-describedby="share-thread-help"
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      <p id="share-thread-help" class="field__help">
        A message link (Copy link on the message) or its ts; the files go to that thread.
      </p>
    </div>
  );
}

export function NoTokenNotice(props: {
  workspace: Snapshot['workspaces'][number] | undefined;
  onShow: (view: View) => void;
}) {
  const { workspace } = props;
  return workspace && !workspace.hasToken ? (
    <Notice tone="warning">
      {workspace.name} has no token saved, so nothing can be sent there yet.{' '}
      <button
        type="button"
        id="share-no-token"
        class="link"
        onClick={() => props.onShow('settings')}
      >
        Add the token in Settings
      </button>
    </Notice>
  ) : null;
}

/** A preset or channels; a preset only once there is one. */
function ModeSwitch(props: {
  mode: SheetDraft['mode'];
  presets: boolean;
  onMode: (mode: SheetDraft['mode']) => void;
}) {
  const { mode } = props;
  return (
    <div class="segmented">
      <label class="segmented__option">
        <input
          type="radio"
          name="mode"
          value="preset"
          checked={mode === 'preset'}
          disabled={!props.presets}
          onChange={() => props.onMode('preset')}
        />
        <span>A preset</span>
      </label>
      <label class="segmented__option">
        <input
          type="radio"
          name="mode"
          value="channels"
          checked={mode === 'channels'}
          onChange={() => props.onMode('channels')}
        />
        <span>Channels</span>
      </label>
    </div>
  );
}
