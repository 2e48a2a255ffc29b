import type { RefObject } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { normaliseChannels } from '../../../main/portable/channels';
import type { Preset, Snapshot, View } from '../../../preload/contract';
import { api } from '../bridge';
import { ActionError, Notice } from '../ui/notice';
import { useEscape } from '../ui/use-escape';
import { WorkspaceSelect } from '../ui/workspace-select';
import { useAction } from '../use-action';
import { PresetChannels, type Row, rowError, useChannelRows } from './preset-channels';

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
 * Esc leaves the editor as Cancel does, unless a list or a question inside took it first.
 * Returns the name field's ref: opened from a list's button that is gone now, the person
 * starts at the name.
 */
function useEscapeLeaves(onDone: () => void): RefObject<HTMLInputElement> {
  const nameRef = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => nameRef.current?.focus(), []);
  useEscape(onDone);
  return nameRef;
}

export function PresetEditor(props: {
  snapshot: Snapshot;
  preset: Preset | undefined;
  /** Closed: with the preset saved (its id), or cancelled (undefined). */
  onDone: (savedId?: string) => void;
  onShow: (view: View) => void;
}) {
  const { snapshot, preset } = props;
  const channels = useChannelRows(preset);
  const [name, setName] = useState(preset?.name ?? '');
  const [workspaceId, setWorkspaceId] = useState(
    preset?.workspaceId ?? snapshot.workspaces[0]?.id ?? '',
  );
  const [comment, setComment] = useState(preset?.comment ?? '');
  const [attempted, setAttempted] = useState(false);
  const action = useAction();
  const problems = presetProblems(name, workspaceId, channels.rows);

  const save = async (e: Event) => {
    e.preventDefault();
    setAttempted(true);
    if (problems.length > 0) return;
    const rows = channels.rows.filter((r) => r.id.trim() !== '');
    const input = { name: name.trim(), workspaceId, channels: rows.map(channelOf), comment };
    const saved = await action.run(() =>
      preset ? api().updatePreset(preset.id, input) : api().addPreset(input),
    );
    if (saved) props.onDone(saved.id);
  };

  const nameRef = useEscapeLeaves(() => props.onDone());

  return (
    <section class="view" aria-labelledby="preset-editor-title">
      <header class="view__header">
        <h1 id="preset-editor-title" class="view__title" tabIndex={-1}>
          {preset ? `Edit “${preset.name}”` : 'New preset'}
        </h1>
      </header>
      <form class="sheet" onSubmit={save} noValidate>
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
            <button type="button" class="button" onClick={() => props.onDone()}>
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
