import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { normaliseChannels } from '../../../main/portable/channels';
import type { Preset, Snapshot, View } from '../../../preload/contract';
import { api } from '../bridge';
import { useNamedRefs } from '../channel-names';
import { tokenState } from '../token-state';
import { ChannelPicker } from '../ui/channel-picker';
import { ActionError, Notice } from '../ui/notice';
import { WorkspaceSelect } from '../ui/workspace-select';
import { useAction } from '../use-action';

interface Row {
  key: number;
  id: string;
  label: string;
}

/** Why this one ID cannot be sent, or null; empty rows are simply skipped. */
function rowError(id: string): string | null {
  if (id.trim() === '') return null;
  const check = normaliseChannels([id]);
  return check.ok ? null : check.error;
}

export function PresetEditor(props: {
  snapshot: Snapshot;
  preset: Preset | undefined;
  /** Closed: with the preset saved (its id), or cancelled (undefined). */
  onDone: (savedId?: string) => void;
  onShow: (view: View) => void;
}) {
  const { snapshot, preset } = props;
  const nextKey = useRef(0);
  const makeRow = (id = '', label = ''): Row => ({ key: nextKey.current++, id, label });
  const [name, setName] = useState(preset?.name ?? '');
  const [workspaceId, setWorkspaceId] = useState(
    preset?.workspaceId ?? snapshot.workspaces[0]?.id ?? '',
  );
  const [rows, setRows] = useState<Row[]>(() =>
    preset && preset.channels.length > 0
      ? preset.channels.map((c) => makeRow(c.id, c.label ?? ''))
      : [makeRow()],
  );
  const [comment, setComment] = useState(preset?.comment ?? '');
  const [attempted, setAttempted] = useState(false);
  const action = useAction();
  const focusKey = useRef<number | null>(null);
  const named = useNamedRefs();
  const known = (id: string): string | undefined => {
    const label = named(workspaceId, [{ id: id.trim() }])[0]?.label;
    return label ? `#${label.replace(/^#/, '')}` : undefined;
  };

  const ids = rows.map((r) => r.id.trim()).filter((id) => id !== '');
  const listCheck = normaliseChannels(ids);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  const rowProblem = rows.some((r) => rowError(r.id) !== null);
  const problems = [
    name.trim() === '' ? 'Give the preset a name.' : null,
    workspaceId === '' ? 'Choose a workspace.' : null,
    !rowProblem && !listCheck.ok ? listCheck.error : null,
    rowProblem ? 'Fix the channel IDs marked above.' : null,
    duplicate ? `${duplicate} is listed twice.` : null,
  ].filter((p): p is string => p !== null);

  const update = (key: number, patch: Partial<Row>) =>
    setRows((current) => current.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const addRow = () => {
    const row = makeRow();
    focusKey.current = row.key;
    setRows((current) => [...current, row]);
  };

  const removeRow = (key: number) =>
    setRows((current) => {
      const left = current.filter((r) => r.key !== key);
      return left.length === 0 ? [makeRow()] : left;
    });

  const save = async (e: Event) => {
    e.preventDefault();
    setAttempted(true);
    if (problems.length > 0) return;
    const channels = rows
      .filter((r) => r.id.trim() !== '')
      .map((r) => {
        const label = r.label.trim().replace(/^#/, '');
        return label ? { id: r.id.trim(), label } : { id: r.id.trim() };
      });
    const input = { name: name.trim(), workspaceId, channels, comment };
    const saved = await action.run(() =>
      preset ? api().updatePreset(preset.id, input) : api().addPreset(input),
    );
    if (saved) props.onDone(saved.id);
  };

  // Esc leaves the editor as Cancel does, unless a list or a question inside took it first.
  const done = useRef(props.onDone);
  done.current = props.onDone;
  const nameRef = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    // Opened from a list's button that is gone now: the person starts at the name.
    nameRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) done.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const title = preset ? `Edit “${preset.name}”` : 'New preset';
  return (
    <section class="view" aria-labelledby="preset-editor-title">
      <header class="view__header">
        <h1 id="preset-editor-title" class="view__title" tabIndex={-1}>
          {title}
        </h1>
      </header>
      <form class="sheet" onSubmit={save} noValidate>
        <div class="field-row">
          <div class="field field--grow">
            <label for="preset-name" class="field__label">
              Name
            </label>
            <input
              id="preset-name"
              ref={nameRef}
              class="input"
              value={name}
              autocomplete="off"
              aria-invalid={attempted && name.trim() === ''}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          </div>
          <WorkspaceSelect
            id="preset-workspace"
            workspaces={snapshot.workspaces}
            value={workspaceId}
            onChange={setWorkspaceId}
          />
        </div>

        <fieldset class="group">
          <legend class="group__label">Channels</legend>
          <ChannelPicker
            id="preset-channel-search"
            label="Add a channel"
            workspaceId={workspaceId}
            tokenState={tokenState(snapshot.workspaces.find((w) => w.id === workspaceId))}
            selected={rows
              .filter((r) => r.id.trim() !== '')
              .map((r) => ({ id: r.id.trim(), label: r.label }))}
            onAdd={(ref) =>
              // Adds to the preset's channels; an empty row left for typing is filled first.
              setRows((current) => {
                const empty = current.findIndex((r) => r.id.trim() === '');
                const row = makeRow(ref.id, ref.label ?? '');
                if (empty < 0) return [...current, row];
                return current.map((r, i) => (i === empty ? { ...row, key: r.key } : r));
              })
            }
          />
          <p class="field__help">
            Pick channels by name above. Each row keeps the channel's ID too, so the preset still
            works if the channel is renamed.
          </p>
          <ul class="channel-rows">
            {rows.map((row, index) => {
              const error = rowError(row.id);
              const idField = `preset-channel-${row.key}`;
              return (
                <li key={row.key} class="channel-row">
                  <div class="field field--grow">
                    <label for={`${idField}-label`} class="field__label">
                      Channel {index + 1} name
                    </label>
                    <input
                      id={`${idField}-label`}
                      class="input"
                      value={row.label}
                      // The name the workspace gives the channel, when the row has none of its own.
                      placeholder={known(row.id)}
                      autocomplete="off"
                      onInput={(e) => update(row.key, { label: e.currentTarget.value })}
                    />
                  </div>
                  <div class="field">
                    <label for={idField} class="field__label">
                      Channel {index + 1} ID
                    </label>
                    <input
                      id={idField}
                      class={`input input--mono${error ? ' input--invalid' : ''}`}
                      value={row.id}
                      placeholder="C0123ABCD"
                      spellcheck={false}
                      autocomplete="off"
                      aria-invalid={error !== null}
                      aria-describedby={error ? `${idField}-error` : undefined}
                      ref={(el) => {
                        if (el && focusKey.current === row.key) {
                          focusKey.current = null;
                          el.focus();
                        }
                      }}
                      onInput={(e) => update(row.key, { id: e.currentTarget.value })}
                    />
                    {error ? (
                      <p id={`${idField}-error`} class="field__error">
                        {error}
                      </p>
                    ) : null}
                  </div>
                  <button
                    type="button"
                    class="button button--small button--quiet channel-row__remove"
                    aria-label={`Remove channel ${index + 1}`}
                    onClick={() => removeRow(row.key)}
                  >
                    Remove
                  </button>
                </li>
              );
            })}
          </ul>
          <button type="button" class="button button--small" onClick={addRow}>
            Add channel
          </button>
        </fieldset>

        <div class="field">
          <label for="preset-comment" class="field__label">
            Default comment <span class="muted">(optional)</span>
          </label>
          <textarea
            id="preset-comment"
            class="input input--area"
            rows={2}
            value={comment}
            onInput={(e) => setComment(e.currentTarget.value)}
          />
        </div>

        <div class="sheet__footer">
          {attempted && problems.length > 0 ? (
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
          ) : null}
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
