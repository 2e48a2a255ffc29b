// The channels of a preset being edited: rows of name and ID, filled by the channel picker or by
// hand. The rows keep a key of their own so typing in one never moves focus or text to another.
import { type MutableRef, useRef, useState } from 'preact/hooks';
import { normaliseChannels } from '../../../main/portable/channels';
import type { ChannelRef, Preset, Snapshot } from '../../../preload/contract';
import { useNamedRefs } from '../channel-names';
import { signedIn, tokenState } from '../token-state';
import { ChannelPicker } from '../ui/channel-picker';

export interface Row {
  key: number;
  id: string;
  label: string;
}

/** Why this one ID cannot be sent, or null; empty rows are simply skipped. */
export function rowError(id: string): string | null {
  if (id.trim() === '') return null;
  const check = normaliseChannels([id]);
  if (!check.ok) return check.error;
  // Slack's IDs: a type letter and upper-case letters and digits (channel-names.ts, looksLikeId).
  if (!/^[CGDUW][A-Z0-9]+$/.test(check.channels[0] ?? '')) {
    return `${id.trim()} is a name, and this field takes the channel's ID (like C0123ABCD). Add the channel by name with “Add a channel” above.`;
  }
  return null;
}

export interface ChannelRows {
  rows: Row[];
  /** The row whose ID field takes focus when it appears (one just added), then none. */
  focusKey: MutableRef<number | null>;
  update: (key: number, patch: Partial<Row>) => void;
  addRow: () => void;
  removeRow: (key: number) => void;
  addRef: (ref: ChannelRef) => void;
}

/** The rows a preset's editor starts with: its channels, or one empty row to type in. */
export function presetRows(preset: Preset | undefined): { id: string; label: string }[] {
  return preset && preset.channels.length > 0
    ? preset.channels.map((c) => ({ id: c.id, label: c.label ?? '' }))
    : [{ id: '', label: '' }];
}

export function useChannelRows(initial: readonly { id: string; label: string }[]): ChannelRows {
  const nextKey = useRef(0);
  const makeRow = (id = '', label = ''): Row => ({ key: nextKey.current++, id, label });
  const [rows, setRows] = useState<Row[]>(() =>
    initial.length > 0 ? initial.map((r) => makeRow(r.id, r.label)) : [makeRow()],
  );
  const focusKey = useRef<number | null>(null);
  return {
    rows,
    focusKey,
    update: (key, patch) =>
      setRows((current) => current.map((r) => (r.key === key ? { ...r, ...patch } : r))),
    addRow: () => {
      const row = makeRow();
      focusKey.current = row.key;
      setRows((current) => [...current, row]);
    },
    removeRow: (key) =>
      setRows((current) => {
        const left = current.filter((r) => r.key !== key);
        return left.length === 0 ? [makeRow()] : left;
      }),
    // Adds to the preset's channels; an empty row left for typing is filled first.
    addRef: (ref) =>
      setRows((current) => {
        const empty = current.findIndex((r) => r.id.trim() === '');
        const row = makeRow(ref.id, ref.label ?? '');
        if (empty < 0) return [...current, row];
        return current.map((r, i) => (i === empty ? { ...row, key: r.key } : r));
      }),
  };
}

export function PresetChannels(props: {
  snapshot: Snapshot;
  workspaceId: string;
  channels: ChannelRows;
}) {
  const { workspaceId, channels } = props;
  const named = useNamedRefs();
  const known = (id: string): string | undefined => {
    const label = named(workspaceId, [{ id: id.trim() }])[0]?.label;
    return label ? `#${label.replace(/^#/, '')}` : undefined;
  };
  return (
    <fieldset class="group">
      <legend class="group__label">Channels</legend>
      <ChannelPicker
        id="preset-channel-search"
        label="Add a channel"
        workspaceId={workspaceId}
        tokenState={tokenState(props.snapshot.workspaces.find((w) => w.id === workspaceId))}
        signedIn={signedIn(props.snapshot.workspaces.find((w) => w.id === workspaceId))}
        selected={channels.rows
          .filter((r) => r.id.trim() !== '')
          .map((r) => ({ id: r.id.trim(), label: r.label }))}
        onAdd={channels.addRef}
      />
      <p class="field__help">
        Pick channels by name above. Each row keeps the channel's ID too, so the preset still works
        if the channel is renamed.
      </p>
      <ul class="channel-rows">
        {channels.rows.map((row, index) => (
          <ChannelRowFields
            key={row.key}
            row={row}
            index={index}
            known={known(row.id)}
            channels={channels}
          />
        ))}
      </ul>
      <button type="button" class="button button--small" onClick={channels.addRow}>
        Add channel
      </button>
    </fieldset>
  );
}

function ChannelRowFields(props: {
  row: Row;
  index: number;
  /** The name the workspace gives the channel, when the row has none of its own. */
  known: string | undefined;
  channels: ChannelRows;
}) {
  const { row, index, channels } = props;
  const error = rowError(row.id);
  const idField = `preset-channel-${row.key}`;
  const slackName = row.label.trim() === '' ? props.known : undefined;
  return (
    <li class="channel-row">
      <div class="field field--grow">
        <label for={`${idField}-label`} class="field__label">
          Channel {index + 1} name
        </label>
        <input
          id={`${idField}-label`}
          class="input"
          value={row.label}
          autocomplete="off"
          aria-describedby={slackName ? `${idField}-label-help` : undefined}
          onInput={(e) => channels.update(row.key, { label: e.currentTarget.value })}
        />
        {/* Said under the field, not as a grey placeholder inside it, which read as a name
            already typed in. */}
        {slackName ? (
          <p id={`${idField}-label-help`} class="field__help">
            {`Empty: Slack’s name, ${slackName}`}
          </p>
        ) : null}
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
            if (el && channels.focusKey.current === row.key) {
              channels.focusKey.current = null;
              el.focus();
            }
          }}
          onInput={(e) => channels.update(row.key, { id: e.currentTarget.value })}
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
        onClick={() => channels.removeRow(row.key)}
      >
        Remove
      </button>
    </li>
  );
}
