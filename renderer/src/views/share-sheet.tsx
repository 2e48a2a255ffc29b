import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { shortcutLabel } from '../../../main/portable/shortcut-label';
import type {
  ChannelRef,
  PathDescription,
  ShareResult,
  Snapshot,
  View,
} from '../../../preload/contract';
import { api } from '../bridge';
import { useNamedRefs } from '../channel-names';
import {
  baseName,
  countFiles,
  formatBytes,
  messagesSummary,
  type SummaryInput,
  shareSummaryParts,
} from '../format';
import { isMac } from '../platform';
import { tokenState } from '../token-state';
import { ChannelPicker } from '../ui/channel-picker';
import { ActionError, Notice } from '../ui/notice';
import { DestinationList } from '../ui/person-icon';
import { WorkspaceSelect } from '../ui/workspace-select';
import { useAction } from '../use-action';

type Mode = 'preset' | 'channels';

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

function parentOf(path: string): string {
  const name = baseName(path);
  const cut = path.lastIndexOf(name);
  return cut > 0 ? path.slice(0, cut).replace(/[\\/]+$/, '') : '';
}

export function ShareSheet(props: {
  snapshot: Snapshot;
  paths: string[];
  onPick: () => void;
  onRemove: (path: string) => void;
  /**
   * Closed: by Share or Cancel (the files go), or by Esc with `draft` (the files and what was
   * set stay, and the sheet opens with them again).
   */
  onClose: (next: View, draft?: SheetDraft) => void;
  onShow: (view: View) => void;
  draft?: SheetDraft | null;
}) {
  const { snapshot, paths } = props;
  const kept = props.draft;
  const named = useNamedRefs();
  const presets = snapshot.presets;
  const firstPreset = presets.find((p) => p.id === snapshot.defaultPresetId) ?? presets[0];
  const [mode, setMode] = useState<Mode>(kept?.mode ?? (firstPreset ? 'preset' : 'channels'));
  const [presetId, setPresetId] = useState(kept?.presetId ?? firstPreset?.id ?? '');
  const [workspaceId, setWorkspaceId] = useState(
    kept?.workspaceId ?? firstPreset?.workspaceId ?? snapshot.workspaces[0]?.id ?? '',
  );
  const [picked, setPicked] = useState<ChannelRef[]>(kept?.picked ?? []);
  const [thread, setThread] = useState(kept?.thread ?? '');
  const [comment, setComment] = useState(kept?.comment ?? firstPreset?.comment ?? '');
  const [commentEdited, setCommentEdited] = useState(kept?.commentEdited ?? false);
  const [attempted, setAttempted] = useState(false);
  const [result, setResult] = useState<ShareResult | null>(null);
  const action = useAction();

  const preset = presets.find((p) => p.id === presetId);
  const channels: ChannelRef[] = mode === 'preset' ? (preset?.channels ?? []) : picked;
  const workspace = snapshot.workspaces.find(
    (w) => w.id === (mode === 'preset' ? preset?.workspaceId : workspaceId),
  );
  const described = useDescriptions(paths, workspace?.id);
  // Until the core has described every path, each counts as one file, as it was picked.
  const sendable = described ? paths.filter((p) => !described.get(p)?.refused) : paths;
  const fileCount = described
    ? sendable.reduce((sum, p) => sum + (described.get(p)?.files ?? 0), 0)
    : paths.length;
  const leftOut = paths.length - sendable.length;
  // Slack refuses an empty file: the person decides before Share, not after a failure.
  const empties = described
    ? sendable.filter((p) => {
        const about = described.get(p);
        return about?.kind === 'file' && about.bytes === 0;
      })
    : [];
  const [sendEmpty, setSendEmpty] = useState(false);
  const emptyQuestion =
    empties.length > 0 && !sendEmpty
      ? `${empties.length === 1 ? `${baseName(empties[0]!)} is empty (0 bytes)` : `${empties.length} files are empty (0 bytes)`}, and Slack refuses empty files.`
      : null;
  const showChannelError = mode === 'channels' && attempted && picked.length === 0;
  const problem =
    paths.length === 0
      ? 'Add at least one file.'
      : fileCount === 0
        ? paths.length === 1
          ? 'This cannot be shared (the reason is beside it): remove it, or add files.'
          : 'None of these can be shared (the reasons are beside them): remove them, or add files.'
        : !workspace
          ? mode === 'preset'
            ? 'Choose a preset.'
            : 'Choose a workspace.'
          : channels.length === 0
            ? mode === 'preset'
              ? 'This preset has no channels; edit it in Presets.'
              : 'Choose at least one channel.'
            : thread.trim() !== '' && channels.length > 1
              ? mode === 'preset'
                ? `A reply in a thread goes to one channel, and this preset has ${channels.length}.`
                : 'A reply in a thread goes to one channel: keep just one.'
              : emptyQuestion
                ? `${emptyQuestion} Leave ${empties.length === 1 ? 'it' : 'them'} out, or share anyway.`
                : null;

  const choosePreset = (id: string) => {
    setPresetId(id);
    const next = presets.find((p) => p.id === id);
    if (next && !commentEdited) setComment(next.comment);
  };

  // A preset of several channels cannot reply in one thread: the same destination as channels
  // to pick from, or just the thread's own channel when its link names one.
  const chooseThreadChannel = () => {
    if (!preset) return;
    const linked = /\/archives\/([A-Z0-9]+)\/p\d{16}/.exec(thread)?.[1];
    const refs = named(preset.workspaceId, preset.channels);
    const own = refs.find((r) => r.id === linked) ?? (linked ? { id: linked } : undefined);
    setWorkspaceId(preset.workspaceId);
    setPicked(own ? [own] : refs);
    setMode('channels');
    setTimeout(() => document.getElementById('share-channels')?.focus(), 0);
  };

  const submit = async (e?: Event) => {
    e?.preventDefault();
    setAttempted(true);
    if (problem || !workspace) return;
    const target =
      mode === 'preset' && preset
        ? { presetId: preset.id }
        : { workspaceId: workspace.id, channels: channels.map((c) => c.id) };
    const shared = await action.run(() =>
      api().share({
        target,
        comment: comment.trim() === '' ? undefined : comment,
        // Paths the sheet shows as refused stay behind: the person has seen why.
        paths: sendable,
        ...(thread.trim() !== '' ? { thread: thread.trim() } : {}),
      }),
    );
    if (!shared) return;
    if (shared.refused.length === 0) props.onClose('queue');
    else setResult(shared);
  };

  // Esc closes the sheet, as it would a dialog, wherever focus is (even nowhere). Nothing is
  // thrown away: files, comment and channels are kept as a draft, and the sheet (Share sheet in
  // the navigation) opens with them again. Cancel is the way to throw them away.
  const draft: SheetDraft = { mode, presetId, workspaceId, picked, thread, comment, commentEdited };
  const close = useRef(() => {});
  close.current = () =>
    props.onClose('drop', paths.length > 0 || comment.trim() !== '' ? draft : undefined);
  const busy = useRef(false);
  busy.current = action.busy;
  // A layout effect: listening from the first render on, not after a frame (a window in the
  // background gets no frames, and Esc pressed at once must still close the sheet).
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented && !busy.current) close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  if (result) return <ShareOutcome result={result} onClose={props.onClose} />;

  return (
    <section class="view" aria-labelledby="share-title">
      <header class="view__header">
        <h1 id="share-title" class="view__title" tabIndex={-1}>
          Share {countFiles(fileCount)}
        </h1>
      </header>
      <form class="sheet" onSubmit={submit} noValidate>
        <fieldset class="group group--files">
          <legend class="group__label">Files</legend>
          {paths.length === 0 ? (
            <p class="muted">No files yet.</p>
          ) : (
            <FileList paths={paths} described={described} onRemove={props.onRemove} />
          )}
          {described && paths.length > 0 ? (
            <p class="file-total" aria-live="polite">
              {fileTotal(paths, described)}
            </p>
          ) : null}
          {emptyQuestion ? (
            <fieldset class="confirm confirm--block" aria-label="Share empty files?">
              <span class="confirm__question">{emptyQuestion}</span>
              <button
                type="button"
                class="button button--small"
                onClick={() => {
                  for (const p of empties) props.onRemove(p);
                }}
              >
                Leave {empties.length === 1 ? 'it' : 'them'} out
              </button>
              <button type="button" class="button button--small" onClick={() => setSendEmpty(true)}>
                Share anyway
              </button>
            </fieldset>
          ) : null}
          <button type="button" class="button button--small" onClick={props.onPick}>
            Add files…
          </button>
        </fieldset>

        <fieldset class="group">
          <legend class="group__label">Send to</legend>
          <div class="segmented">
            <label class="segmented__option">
              <input
                type="radio"
                name="mode"
                value="preset"
                checked={mode === 'preset'}
                disabled={presets.length === 0}
                onChange={() => setMode('preset')}
              />
              <span>A preset</span>
            </label>
            <label class="segmented__option">
              <input
                type="radio"
                name="mode"
                value="channels"
                checked={mode === 'channels'}
                onChange={() => setMode('channels')}
              />
              <span>Channels</span>
            </label>
          </div>
          {mode === 'preset' ? (
            <div class="field">
              <label for="share-preset" class="field__label">
                Preset
              </label>
              <select
                id="share-preset"
                class="input"
                value={presetId}
                onChange={(e) => choosePreset(e.currentTarget.value)}
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
                onChange={setWorkspaceId}
              />
              <ChannelPicker
                id="share-channels"
                label="Channels"
                workspaceId={workspaceId}
                tokenState={tokenState(snapshot.workspaces.find((w) => w.id === workspaceId))}
                selected={picked}
                invalid={showChannelError}
                onAdd={(ref) => setPicked((now) => [...now, ref])}
                onRemove={(id) => setPicked((now) => now.filter((c) => c.id !== id))}
              />
            </div>
          )}
        </fieldset>

        <div class="field">
          <label for="share-comment" class="field__label">
            Comment <span class="muted">(optional)</span>
          </label>
          <textarea
            id="share-comment"
            class="input input--area"
            rows={3}
            value={comment}
            aria-describedby="share-comment-help"
            onInput={(e) => {
              setComment(e.currentTarget.value);
              setCommentEdited(true);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void submit();
            }}
          />
          <p id="share-comment-help" class="field__help">
            Posted with the files. {shortcutLabel('CommandOrControl+Enter', isMac)} shares.
          </p>
        </div>

        <div class="field">
          <label for="share-thread" class="field__label">
            Reply in thread <span class="muted">(optional)</span>
          </label>
          <input
            id="share-thread"
            class="input"
            value={thread}
            placeholder="https://…/archives/C0123/p1700000000123456"
            spellcheck={false}
            autocomplete="off"
            aria-describedby="share-thread-help"
            onInput={(e) => {
              const value = e.currentTarget.value;
              setThread(value);
              // A message link names its channel: it becomes the destination if none is chosen.
              const channel = /\/archives\/([A-Z0-9]+)\/p\d{16}/.exec(value)?.[1];
              if (channel && mode === 'channels' && picked.length === 0)
                setPicked([{ id: channel }]);
            }}
          />
          <p id="share-thread-help" class="field__help">
            A message link (Copy link on the message) or its ts; the files go to that thread.
          </p>
        </div>

        {workspace && !workspace.hasToken ? (
          <Notice tone="warning">
            {workspace.name} has no token saved, so nothing can be sent there yet.{' '}
            <button type="button" class="link" onClick={() => props.onShow('settings')}>
              Add the token in Settings
            </button>
          </Notice>
        ) : null}

        <div class="sheet__footer">
          <p class="summary" aria-live="polite">
            <ShareSummary
              files={fileCount}
              leftOut={leftOut}
              channels={workspace ? named(workspace.id, channels) : channels}
              workspace={workspace?.name ?? ''}
              comment={comment.trim() !== ''}
            />
          </p>
          {(attempted || (paths.length > 0 && fileCount === 0)) && problem ? (
            <Notice tone="error">
              {problem}
              {mode === 'preset' && thread.trim() !== '' && channels.length > 1 ? (
                <>
                  {' '}
                  <button type="button" class="link" onClick={chooseThreadChannel}>
                    Choose the channel instead
                  </button>
                </>
              ) : null}
            </Notice>
          ) : null}
          <ActionError error={action.error} />

          <div class="actions">
            {/* Beside the buttons, not a line of its own: the footer stays small at tray size. */}
            <p class="messages-line muted">
              {messagesSummary(fileCount, comment.trim() !== '', workspace?.protocol)}
            </p>
            <button type="button" class="button" onClick={() => props.onClose('drop')}>
              Cancel
            </button>
            <button
              type="submit"
              class="button button--primary"
              disabled={action.busy || fileCount === 0}
            >
              {action.busy ? 'Sharing…' : 'Share'}
            </button>
          </div>
        </div>
      </form>
    </section>
  );
}

// The files are one Tab stop: arrow keys move between them, Delete removes the one in focus.
function FileList(props: {
  paths: string[];
  described: Map<string, PathDescription> | null;
  onRemove: (path: string) => void;
}) {
  const [current, setCurrent] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  const at = Math.min(current, props.paths.length - 1);
  const focusAt = (index: number) => {
    setCurrent(index);
    list.current?.querySelectorAll<HTMLButtonElement>('button')[index]?.focus();
  };
  const remove = (index: number) => {
    const group = list.current?.closest('fieldset');
    props.onRemove(props.paths[index]!);
    // Focus stays in the list, on the file that took the removed one's place; the last file
    // gone, it moves to Add files.
    // A task, not an animation frame: the list has re-rendered by then, and frames are not
    // drawn for a window in the background, where the focus would be left on nothing.
    const left = props.paths.length - 1;
    setTimeout(() => {
      if (left > 0) focusAt(Math.min(index, left - 1));
      else group?.querySelector<HTMLButtonElement>('button')?.focus();
    }, 0);
  };
  return (
    <ul
      class="file-list"
      ref={list}
      aria-label="Files to share"
      onKeyDown={(e) => {
        const last = props.paths.length - 1;
        const next =
          e.key === 'ArrowDown'
            ? Math.min(at + 1, last)
            : e.key === 'ArrowUp'
              ? Math.max(at - 1, 0)
              : e.key === 'Home'
                ? 0
                : e.key === 'End'
                  ? last
                  : null;
        if (next !== null) {
          e.preventDefault();
          focusAt(next);
        } else if (e.key === 'Delete' || e.key === 'Backspace') {
          e.preventDefault();
          remove(at);
        }
      }}
    >
      {props.paths.map((path, index) => {
        const about = props.described?.get(path);
        return (
          <li
            key={path}
            class={`file-list__item${about?.refused ? ' file-list__item--refused' : ''}`}
          >
            <span class="file-list__name">{baseName(path)}</span>
            {about ? <span class="file-list__size">{describeOne(about)}</span> : null}
            <span class="file-list__dir" title={path}>
              {parentOf(path)}
            </span>
            {about?.refused ? (
              <span class="file-list__refused">Not shared: {about.refused.reason}</span>
            ) : about?.skipped?.[0] ? (
              <span class="file-list__skipped">
                {`${about.skipped.length === 1 ? '1 file inside is' : `${about.skipped.length} files inside are`} left out${about.skipped.length === 1 ? '' : ', the first'}: ${baseName(about.skipped[0].path)}: ${about.skipped[0].reason}`}
              </span>
            ) : null}
            <button
              type="button"
              class="button button--small button--quiet"
              aria-label={`Remove ${baseName(path)}`}
              tabIndex={index === at ? 0 : -1}
              onFocus={() => setCurrent(index)}
              onClick={() => remove(index)}
            >
              Remove
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** "12 KB", "Folder · 3 files · 1.2 MB", "Folder" (when refused, the reason says the rest). */
function describeOne(about: PathDescription): string {
  if (about.refused) return about.kind === 'folder' ? 'Folder' : '';
  const size = formatBytes(about.bytes);
  return about.kind === 'folder' ? `Folder · ${countFiles(about.files)} · ${size}` : size;
}

/** "Total: 4 files, 1.3 MB", with what is left out. */
function fileTotal(paths: string[], described: Map<string, PathDescription>): string {
  let files = 0;
  let bytes = 0;
  let refused = 0;
  for (const path of paths) {
    const about = described.get(path);
    if (!about || about.refused) refused++;
    else {
      files += about.files;
      bytes += about.bytes;
    }
  }
  const total =
    files === 0 ? 'Nothing to share' : `Total: ${countFiles(files)}, ${formatBytes(bytes)}`;
  return refused === 0
    ? total
    : `${total} (${refused} ${refused === 1 ? 'path' : 'paths'} left out)`;
}

/**
 * What the core says each path would send (size, a folder's files, or why it is refused),
 * asked again when the paths or the workspace (its size limit) change; null until it answers
 * for the paths shown now, and when it cannot answer (Share then checks, as before).
 */
function useDescriptions(
  paths: string[],
  workspaceId: string | undefined,
): Map<string, PathDescription> | null {
  const [answer, setAnswer] = useState<{ key: string; map: Map<string, PathDescription> } | null>(
    null,
  );
  const key = JSON.stringify([workspaceId ?? '', paths]);
  useEffect(() => {
    if (paths.length === 0) return;
    let current = true;
    api()
      .describePaths({ paths, ...(workspaceId ? { workspaceId } : {}) })
      .then(
        (list) => {
          if (current) setAnswer({ key, map: new Map(list.map((d) => [d.path, d])) });
        },
        () => undefined,
      );
    return () => {
      current = false;
    };
    // The key holds both inputs: a new array with the same paths asks nothing again.
  }, [key]);
  return answer?.key === key ? answer.map : null;
}

function ShareOutcome(props: { result: ShareResult; onClose: (next: View) => void }) {
  const { result } = props;
  const queued = result.items.length;
  return (
    <section class="view" aria-labelledby="outcome-title">
      <header class="view__header">
        <h1 id="outcome-title" class="view__title" tabIndex={-1}>
          {queued === 0 ? 'Nothing was queued' : `${countFiles(queued)} queued`}
        </h1>
      </header>
      <Notice tone={queued === 0 ? 'error' : 'warning'}>
        {result.refused.length === 1
          ? 'One path was not queued:'
          : `${result.refused.length} paths were not queued:`}
        <ul class="refused">
          {result.refused.map((r) => (
            <li key={r.path}>
              <span class="refused__name">{baseName(r.path)}</span>: {r.reason}
              <span class="refused__path">{r.path}</span>
            </li>
          ))}
        </ul>
      </Notice>
      <div class="actions">
        <button type="button" class="button" onClick={() => props.onClose('drop')}>
          Done
        </button>
        {queued > 0 ? (
          <button
            type="button"
            class="button button--primary"
            onClick={() => props.onClose('queue')}
          >
            Show queue
          </button>
        ) : null}
      </div>
    </section>
  );
}

/** The one-line summary, people marked with their icon. */
function ShareSummary(props: SummaryInput) {
  const parts = shareSummaryParts(props);
  return (
    <>
      {parts.before}
      <DestinationList labels={parts.targets} max={5} />
      {parts.after}
    </>
  );
}
