import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import type { Preset, Snapshot, View } from '../../../preload/contract';
import { api } from '../bridge';
import { ActionError, Notice } from '../ui/notice';
import { type Action, useAction } from '../use-action';
import { workspaceName } from '../workspace-name';
import { PresetEditor } from './preset-editor';
import { PresetRow } from './preset-row';

type Editing = { kind: 'new' } | { kind: 'edit'; id: string } | null;

export function PresetsView(props: { snapshot: Snapshot; onShow: (view: View) => void }) {
  const { snapshot } = props;
  const [editing, setEditing] = useState<Editing>(null);
  const action = useAction();
  const { presets, setOrder, moving } = useShownOrder(snapshot.presets);
  // Returning from the editor is handled before a move's focus, as the two effects always ran.
  const setReturnFocus = useReturnFocus(editing !== null, presets);
  const setFocusAfterMove = useFocusAfterMove(presets, moving);

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
    <PresetList
      snapshot={snapshot}
      presets={presets}
      action={action}
      onMove={move}
      onNew={() => setEditing({ kind: 'new' })}
      onEdit={(id) => setEditing({ kind: 'edit', id })}
      onShow={props.onShow}
    />
  );
}

/** Shown at once while reorderPresets runs; settings-changed then brings the stored order. */
function useShownOrder(stored: Preset[]): {
  presets: Preset[];
  setOrder: (ids: string[] | null) => void;
  /** A move is shown ahead of the stored order. */
  moving: boolean;
} {
  const [order, setOrder] = useState<string[] | null>(null);
  useEffect(() => setOrder(null), [stored]);
  const presets = order
    ? order.map((id) => stored.find((p) => p.id === id)).filter((p): p is Preset => !!p)
    : stored;
  return { presets, setOrder, moving: order !== null };
}

/** Back from the editor, focus goes to the element with this id once the list shows it. */
function useReturnFocus(editing: boolean, presets: Preset[]): (id: string | null) => void {
  const [returnFocus, setReturnFocus] = useState<string | null>(null);
  useLayoutEffect(() => {
    if (editing || !returnFocus) return;
    const target = document.getElementById(returnFocus);
    if (!target) return;
    target.focus();
    setReturnFocus(null);
  }, [editing, returnFocus, presets]);
  return setReturnFocus;
}

type MoveFocus = { id: string; dir: 'up' | 'down' } | null;

/**
 * After a move, focus stays on the moved preset's arrow (the other one once it is disabled)
 * while the list is redrawn: at once, and again when the stored order comes back. Then it is
 * let go, so a later change of the list (a default set, a preset saved) leaves focus where the
 * person has put it since.
 */
function useFocusAfterMove(presets: Preset[], moving: boolean): (focus: MoveFocus) => void {
  const [focusAfterMove, setFocusAfterMove] = useState<MoveFocus>(null);
  // Before paint, so the focus never visibly leaves the moved preset.
  useLayoutEffect(() => {
    if (!focusAfterMove) return;
    const { id, dir } = focusAfterMove;
    const same = document.getElementById(`preset-${id}-${dir}`) as HTMLButtonElement | null;
    const other = document.getElementById(
      `preset-${id}-${dir === 'up' ? 'down' : 'up'}`,
    ) as HTMLButtonElement | null;
    (same && !same.disabled ? same : other)?.focus();
    if (!moving) setFocusAfterMove(null);
  }, [focusAfterMove, presets, moving]);
  return setFocusAfterMove;
}

function PresetList(props: {
  snapshot: Snapshot;
  presets: Preset[];
  action: Action;
  onMove: (index: number, delta: -1 | 1) => void;
  onNew: () => void;
  onEdit: (id: string) => void;
  onShow: (view: View) => void;
}) {
  const { snapshot, presets } = props;
  const workspace = (id: string) => workspaceName(snapshot, id);
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
            onClick={props.onNew}
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
      <ActionError error={props.action.error} />
      {presets.length === 0 ? (
        <div class="empty">
          <p class="empty__title">No presets yet</p>
          <p class="muted">Without one, you pick the channels each time you share.</p>
        </div>
      ) : (
        <ol class="items" aria-label="Presets, in menu order">
          {presets.map((preset, index) => (
            <PresetRow
              key={preset.id}
              preset={preset}
              index={index}
              count={presets.length}
              isDefault={preset.id === snapshot.defaultPresetId}
              workspace={workspace(preset.workspaceId)}
              action={props.action}
              onMove={props.onMove}
              onEdit={props.onEdit}
            />
          ))}
        </ol>
      )}
    </section>
  );
}
