import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import type { Preset, Snapshot, View } from '../../../preload/contract';
import { api } from '../bridge';
import { useNamedRefs } from '../channel-names';
import { channelIds, channelName } from '../format';
import { ConfirmButton } from '../ui/confirm-button';
import { ActionError, Notice } from '../ui/notice';
import { DestinationList } from '../ui/person-icon';
import { useAction } from '../use-action';
import { PresetEditor } from './preset-editor';

type Editing = { kind: 'new' } | { kind: 'edit'; id: string } | null;

export function PresetsView(props: { snapshot: Snapshot; onShow: (view: View) => void }) {
  const { snapshot } = props;
  const named = useNamedRefs();
  const [editing, setEditing] = useState<Editing>(null);
  // Shown at once while reorderPresets runs; settings-changed then brings the stored order.
  const [order, setOrder] = useState<string[] | null>(null);
  const [focusAfterMove, setFocusAfterMove] = useState<{ id: string; dir: 'up' | 'down' } | null>(
    null,
  );
  const action = useAction();
  const [returnFocus, setReturnFocus] = useState<string | null>(null);

  useEffect(() => setOrder(null), [snapshot.presets]);

  const presets = order
    ? order.map((id) => snapshot.presets.find((p) => p.id === id)).filter((p): p is Preset => !!p)
    : snapshot.presets;

  useLayoutEffect(() => {
    if (editing || !returnFocus) return;
    const target = document.getElementById(returnFocus);
    if (!target) return;
    target.focus();
    setReturnFocus(null);
  }, [editing, returnFocus, presets]);

  // Before paint, so the focus never visibly leaves the moved preset.
  useLayoutEffect(() => {
    if (!focusAfterMove) return;
    const { id, dir } = focusAfterMove;
    const same = document.getElementById(`preset-${id}-${dir}`) as HTMLButtonElement | null;
    const other = document.getElementById(
      `preset-${id}-${dir === 'up' ? 'down' : 'up'}`,
    ) as HTMLButtonElement | null;
    (same && !same.disabled ? same : other)?.focus();
  }, [focusAfterMove, presets]);

  const move = (index: number, delta: -1 | 1) => {
    const ids = presets.map((p) => p.id);
    const target = index + delta;
    if (target < 0 || target >= ids.length) return;
    const [moved] = ids.splice(index, 1);
    if (!moved) return;
    ids.splice(target, 0, moved);
    setOrder(ids);
    setFocusAfterMove({ id: moved, dir: delta < 0 ? 'up' : 'down' });
    void action.run(() => api().reorderPresets(ids));
  };

  const workspaceName = (id: string) =>
    snapshot.workspaces.find((w) => w.id === id)?.name ?? 'a removed workspace';

  if (editing) {
    const preset =
      editing.kind === 'edit' ? snapshot.presets.find((p) => p.id === editing.id) : undefined;
    return (
      <PresetEditor
        snapshot={snapshot}
        preset={preset}
        onDone={(savedId) => {
          // Back on the list, focus is on the preset just edited (or made), else where it began.
          const id = savedId ?? (editing.kind === 'edit' ? editing.id : undefined);
          setReturnFocus(id ? `preset-${id}-edit` : 'presets-new');
          setEditing(null);
        }}
        onShow={props.onShow}
      />
    );
  }

  return (
    <section class="view" aria-labelledby="presets-title">
      <header class="view__header">
        <h1 id="presets-title" class="view__title" tabIndex={-1}>
          Presets
        </h1>
        <div class="view__tools">
          <button
            type="button"
            id="presets-new"
            class="button button--primary"
            disabled={snapshot.workspaces.length === 0}
            onClick={() => setEditing({ kind: 'new' })}
          >
            New preset…
          </button>
        </div>
      </header>
      <p class="view__intro muted">
        A preset is a workspace, its channels and a default comment, so a drop goes where it should
        in one step. The default preset is used for tray drops and shortcuts.
      </p>
      {snapshot.workspaces.length === 0 ? (
        <Notice tone="warning">
          Add a workspace first.{' '}
          <button type="button" class="link" onClick={() => props.onShow('settings')}>
            Open Settings
          </button>
        </Notice>
      ) : null}
      <ActionError error={action.error} />
      {presets.length === 0 ? (
        <div class="empty">
          <p class="empty__title">No presets yet</p>
          <p class="muted">Without one, you pick the channels each time you share.</p>
        </div>
      ) : (
        <ol class="items" aria-label="Presets, in menu order">
          {presets.map((preset, index) => {
            const isDefault = preset.id === snapshot.defaultPresetId;
            const titleId = `preset-${preset.id}-name`;
            return (
              <li key={preset.id} class="item" aria-labelledby={titleId}>
                <div class="item__head">
                  <span class="item__name" id={titleId}>
                    {preset.name}
                  </span>
                  {isDefault ? <span class="badge badge--default">Default</span> : null}
                </div>
                <p class="item__detail" title={channelIds(preset.channels)}>
                  {preset.channels.length === 0 ? (
                    'No channels'
                  ) : (
                    <DestinationList
                      labels={named(preset.workspaceId, preset.channels).map(channelName)}
                      max={4}
                    />
                  )}
                  {` in ${workspaceName(preset.workspaceId)}`}
                  {preset.comment ? ' · with comment' : ''}
                </p>
                <div class="item__actions">
                  <button
                    type="button"
                    id={`preset-${preset.id}-up`}
                    class="button button--small button--icon"
                    aria-label={`Move ${preset.name} up`}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    id={`preset-${preset.id}-down`}
                    class="button button--small button--icon"
                    aria-label={`Move ${preset.name} down`}
                    disabled={index === presets.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    id={`preset-${preset.id}-edit`}
                    class="button button--small"
                    aria-label={`Edit ${preset.name}`}
                    onClick={() => setEditing({ kind: 'edit', id: preset.id })}
                  >
                    Edit…
                  </button>
                  <button
                    type="button"
                    class="button button--small"
                    aria-label={`${isDefault ? 'Unset default' : 'Make default'}: ${preset.name}`}
                    onClick={() =>
                      void action.run(() => api().setDefaultPreset(isDefault ? null : preset.id))
                    }
                  >
                    {isDefault ? 'Unset default' : 'Make default'}
                  </button>
                  <ConfirmButton
                    small
                    label="Delete"
                    ariaLabel={`Delete ${preset.name}`}
                    question={`Delete “${preset.name}”?`}
                    confirmLabel="Delete"
                    onConfirm={() => void action.run(() => api().removePreset(preset.id))}
                  />
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
