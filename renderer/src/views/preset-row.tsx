// One preset in the Presets list with its buttons (move, edit, default, delete). Its own component
// so the list reads as a list; the ids on its buttons are what the view moves focus back to.
import type { Preset } from '../../../preload/contract';
import { api } from '../bridge';
import { useNamedRefs } from '../channel-names';
import { channelIds, channelName } from '../format';
import { ConfirmButton } from '../ui/confirm-button';
import { DestinationList } from '../ui/person-icon';
import type { Action } from '../use-action';

export function PresetRow(props: {
  preset: Preset;
  index: number;
  /** How many presets the list has: the last one cannot move down. */
  count: number;
  isDefault: boolean;
  workspace: string;
  /** The list's action: its error shows once, above the list. */
  action: Action;
  onMove: (index: number, delta: -1 | 1) => void;
  onEdit: (id: string) => void;
}) {
  const { preset, index, isDefault, action } = props;
  const named = useNamedRefs();
  const titleId = `preset-${preset.id}-name`;
  return (
    <li class="item" aria-labelledby={titleId}>
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
        {` in ${props.workspace}`}
        {preset.comment ? ' · with comment' : ''}
      </p>
      <div class="item__actions">
        <MoveButtons preset={preset} index={index} count={props.count} onMove={props.onMove} />
        <button
          type="button"
          id={`preset-${preset.id}-edit`}
          class="button button--small"
          aria-label={`Edit ${preset.name}`}
          onClick={() => props.onEdit(preset.id)}
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
}

/** The arrows that move a preset in the menu order; their ids are where focus lands after a move. */
function MoveButtons(props: {
  preset: Preset;
  index: number;
  count: number;
  onMove: (index: number, delta: -1 | 1) => void;
}) {
  const { preset, index } = props;
  return (
    <>
      <button
        type="button"
        id={`preset-${preset.id}-up`}
        class="button button--small button--icon"
        aria-label={`Move ${preset.name} up`}
        disabled={index === 0}
        onClick={() => props.onMove(index, -1)}
      >
        ↑
      </button>
      <button
        type="button"
        id={`preset-${preset.id}-down`}
        class="button button--small button--icon"
        aria-label={`Move ${preset.name} down`}
        disabled={index === props.count - 1}
        onClick={() => props.onMove(index, 1)}
      >
        ↓
      </button>
    </>
  );
}
