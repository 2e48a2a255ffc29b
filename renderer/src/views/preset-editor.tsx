import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { normaliseChannels } from '../../../main/portable/channels';
import type { Preset, Snapshot, View } from '../../../preload/contract';
import { api } from '../bridge';
import { ActionError, Notice } from '../ui/notice';
import { useEscape } from '../ui/use-escape';
import { WorkspaceSelect } from '../ui/workspace-select';
import { useAction } from '../use-action';
import { PresetChannels, presetRows, type Row, rowError, useChannelRows } from './preset-channels';

/** What stops the preset from being saved, in the order the form shows the fields. */
function presetProblems(name: string, workspaceId: string, rows: Row[]): string[] {
  const ids = rows.map((r) => r.id.trim()).filter((id) => id !== '');
  const listCheck = normaliseChannels(ids);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  const rowProblem = rows.some((r) => rowError(r.id) !== null);
  return [
    name.trim() === '' ? 'Give the preset a name.' : null,
    workspaceId === '' ? 'Choose a workspace.' : null,
    !rowProblem && !listCheck.ok ? listCheck.error : null,
    rowProblem ? 'Fix the channel IDs marked above.' : null,
    duplicate ? `${duplicate} is listed twice.` : null,
  ].filter((p): p is string => p !== null);
}

/**
 * What the editor holds that the preset does not, kept when the editor closes by Esc or by going
 * to another view, as the share sheet keeps its draft: Esc is a way out, not a discard, and a
 * form that is thrown away without a question loses typing for good. Cancel and Save let it go.
 * Kept for the window's life, one per preset (and one for a new preset).
 */
interface PresetDraft {
  name: string;
  workspaceId: string;
  comment: string;
  rows: { id: string; label: string }[];
  /** The preset as it was when the draft was made: saved differently since, the draft is stale. */
  base: string;
}

const keptDrafts = new Map<string, PresetDraft>();

const draftKey = (preset: Preset | undefined) => preset?.id ?? 'new';

function pristine(preset: Preset | undefined, snapshot: Snapshot): PresetDraft {
  return {
    name: preset?.name ?? '',
    workspaceId: preset?.workspaceId ?? snapshot.workspaces[0]?.id ?? '',
    comment: preset?.comment ?? '',
    rows: presetRows(preset),
    base: JSON.stringify(preset ?? null),
  };
}

const sameForm = (a: PresetDraft, b: PresetDraft) =>
  JSON.stringify({ ...a, base: '' }) === JSON.stringify({ ...b, base: '' });

/** The kept draft for `preset`, unless it was saved differently since the draft was made. */
function keptDraft(preset: Preset | undefined): PresetDraft | undefined {
  const draft = keptDrafts.get(draftKey(preset));
  if (draft && draft.base !== JSON.stringify(preset ?? null)) {
    keptDrafts.delete(draftKey(preset));
    return undefined;
  }
  return draft;
}

export function PresetEditor(props: {
  snapshot: Snapshot;
  preset: Preset | undefined;
  /** Closed: with the preset saved (its id), or cancelled (undefined). */
  onDone: (savedId?: string) => void;
  onShow: (view: View) => void;
}) {
  // "Discard changes" starts the form over from the preset, as if opened afresh.
  const [round, setRound] = useState(0);
  return <EditorForm key={round} {...props} onDiscard={() => setRound((r) => r + 1)} />;
}

function EditorForm(props: {
  snapshot: Snapshot;
  preset: Preset | undefined;
  onDone: (savedId?: string) => void;
  onShow: (view: View) => void;
  onDiscard: () => void;
}) {
  const { snapshot, preset } = props;
  const [restored] = useState(() => keptDraft(preset));
  const start = restored ?? pristine(preset, snapshot);
  const channels = useChannelRows(start.rows);
  const [name, setName] = useState(start.name);
  const [workspaceId, setWorkspaceId] = useState(start.workspaceId);
  const [comment, setComment] = useState(start.comment);
  const [attempted, setAttempted] = useState(false);
  const action = useAction();
  const problems = presetProblems(name, workspaceId, channels.rows);

  const current: PresetDraft = {
    name,
    workspaceId,
    comment,
    rows: channels.rows.map((r) => ({ id: r.id, label: r.label })),
    base: start.base,
  };
  const keep = useKeepOnClose(preset, current, pristine(preset, snapshot));

  const save = async (e: Event) => {
    e.preventDefault();
    setAttempted(true);
    if (problems.length > 0) return;
    const rows = channels.rows.filter((r) => r.id.trim() !== '');
    const input = { name: name.trim(), workspaceId, channels: rows.map(channelOf), comment };
    const saved = await action.run(() =>
      preset ? api().updatePreset(preset.id, input) : api().addPreset(input),
    );
    if (saved) {
      keep.letGo();
      props.onDone(saved.id);
    }
  };

  // Esc closes the editor and keeps what was typed (see PresetDraft); the name field takes
  // focus: opened from a list's button that is gone now, the person starts at the name.
  const nameRef = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => nameRef.current?.focus(), []);
  useEscape(() => props.onDone());

  return (
    <section class="view" aria-labelledby="preset-editor-title">
      <header class="view__header">
        <h1 id="preset-editor-title" class="view__title" tabIndex={-1}>
          {preset ? `Edit “${preset.name}”` : 'New preset'}
        </h1>
      </header>
      <form class="sheet" onSubmit={save} noValidate>
        {restored ? (
          <Notice tone="info">
            {preset
              ? 'Your unsaved changes to this preset are back, as you left them.'
              : 'The new preset you left unfinished is back, as you left it.'}{' '}
            <button
              type="button"
              class="link"
              onClick={() => {
                keep.letGo();
                props.onDiscard();
              }}
            >
              Discard changes
            </button>
          </Notice>
        ) : null}
        <NameAndWorkspace
          name={name}
          invalid={attempted && name.trim() === ''}
          nameRef={nameRef}
          onName={setName}
          snapshot={snapshot}
          workspaceId={workspaceId}
          onWorkspace={setWorkspaceId}
        />

        <PresetChannels snapshot={snapshot} workspaceId={workspaceId} channels={channels} />

        <CommentField comment={comment} onComment={setComment} />

        <div class="sheet__footer">
          {attempted && problems.length > 0 ? <Problems problems={problems} /> : null}
          <ActionError error={action.error} />
          <div class="actions">
            <button
              type="button"
              class="button"
              onClick={() => {
                keep.letGo();
                props.onDone();
              }}
            >
              Cancel
            </button>
            <button type="submit" class="button button--primary" disabled={action.busy}>
              {preset ? 'Save preset' : 'Add preset'}
            </button>
          </div>
        </div>
      </form>
    </section>
  );
}

function NameAndWorkspace(props: {
  name: string;
  /** Save was tried with no name. */
  invalid: boolean;
  nameRef: RefObject<HTMLInputElement>;
  onName: (name: string) => void;
  snapshot: Snapshot;
  workspaceId: string;
  onWorkspace: (id: string) => void;
}) {
  return (
    <div class="field-row">
      <div class="field field--grow">
        <label for="preset-name" class="field__label">
          Name
        </label>
        <input
          id="preset-name"
          ref={props.nameRef}
          class="input"
          value={props.name}
          autocomplete="off"
          aria-invalid={props.invalid}
          onInput={(e) => props.onName(e.currentTarget.value)}
        />
      </div>
      <WorkspaceSelect
        id="preset-workspace"
        workspaces={props.snapshot.workspaces}
        value={props.workspaceId}
        onChange={props.onWorkspace}
      />
    </div>
  );
}

function CommentField(props: { comment: string; onComment: (comment: string) => void }) {
  return (
    <div class="field">
      <label for="preset-comment" class="field__label">
        Default comment <span class="muted">(optional)</span>
      </label>
      <textarea
        id="preset-comment"
        class="input input--area"
        rows={2}
        value={props.comment}
        onInput={(e) => props.onComment(e.currentTarget.value)}
      />
    </div>
  );
}

/**
 * Keeps the form as a draft when the editor goes away without Cancel or Save (Esc, another
 * view), unless nothing was changed; `letGo` forgets it (Cancel, Save).
 */
function useKeepOnClose(preset: Preset | undefined, current: PresetDraft, start: PresetDraft) {
  const latest = useRef({ current, start, done: false });
  latest.current = { ...latest.current, current, start };
  const key = draftKey(preset);
  useEffect(
    () => () => {
      const { current: form, start: from, done } = latest.current;
      if (done) return;
      if (sameForm(form, from)) keptDrafts.delete(key);
      else keptDrafts.set(key, form);
    },
    [key],
  );
  return {
    letGo() {
      latest.current.done = true;
      keptDrafts.delete(key);
    },
  };
}

/** A row as the preset stores it: the ID, and a label only when one was given. */
function channelOf(r: Row): { id: string; label?: string } {
  const label = r.label.trim().replace(/^#/, '');
  return label ? { id: r.id.trim(), label } : { id: r.id.trim() };
}

function Problems(props: { problems: string[] }) {
  const { problems } = props;
  return (
    <Notice tone="error">
      {problems.length === 1 ? (
        problems[0]
      ) : (
        <ul class="problems">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </Notice>
  );
}
