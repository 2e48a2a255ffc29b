// One searchable channel picker (an ARIA combobox, keyboard first) for the share sheet and the
// preset editor. It lists the workspace's conversations and people from the core's cached
// lists: type to filter by name, arrows to move, Enter to add. Channels the app is not in are
// shown with the reason and cannot be added (one the list says nothing about can). A person is
// offered whether or not a DM with them exists yet, shown by name with the person icon. Pasting
// IDs (or a list of them) still works, and so does typing one when the lists are unavailable or
// leave a kind out (DMs without im:read, people without users:read), which the help line says.
// It only ever adds to what is chosen.
import type { ComponentChildren } from 'preact';
import { unlistedMessage } from '../../../main/portable/conversation-types';
import type { ChannelRef, DestinationsView } from '../../../preload/contract';
import { type DestinationOption, optionLabel } from './destination-options';
import { Icon } from './icon';
import { DestinationName, PersonIcon } from './person-icon';
import { type PickerProps, useChannelPicker } from './use-channel-picker';

const KIND: Record<DestinationOption['kind'], { icon: ComponentChildren; label: string }> = {
  public: { icon: '#', label: 'public channel' },
  private: { icon: <Icon name="lock" />, label: 'private channel' },
  dm: { icon: <PersonIcon />, label: 'direct message' },
  person: { icon: <PersonIcon />, label: 'direct message' },
  'group-dm': { icon: '👥', label: 'group direct message' },
};

export function ChannelPicker(props: PickerProps) {
  const picker = useChannelPicker(props);
  const { view, list, text, options, active, entry } = picker;
  const expanded = picker.open && options.length > 0;
  return (
    <div class="field field--grow channel-picker">
      <label for={props.id} class="field__label">
        {props.label}
      </label>
      {props.onRemove && props.selected.length > 0 ? (
        <ChosenChips
          selected={props.selected}
          list={list}
          onRemove={(id) => {
            props.onRemove?.(id);
            picker.inputRef.current?.focus();
          }}
        />
      ) : null}
      <div class="picker-anchor">
        <input
          id={props.id}
          ref={picker.inputRef}
          class={`input${props.invalid ? ' input--invalid' : ''}`}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={`${props.id}-list`}
          aria-activedescendant={expanded ? picker.optionId(active) : undefined}
          aria-describedby={`${props.id}-help`}
          aria-invalid={props.invalid === true}
          value={text}
          placeholder="#design-review, @alice or C0123ABCD"
          spellcheck={false}
          autocomplete="off"
          onInput={(e) => picker.type(e.currentTarget.value)}
          onFocus={() => picker.setOpen(true)}
          onBlur={() => picker.setOpen(false)}
          onKeyDown={picker.onKeyDown}
          onPaste={picker.onPaste}
        />
        <PickerOptions
          id={`${props.id}-list`}
          label={props.label}
          options={options}
          expanded={expanded}
          active={active}
          chosen={entry.chosen}
          optionId={picker.optionId}
          onChoose={picker.click}
          signedIn={props.signedIn === true}
        />
      </div>
      <p
        id={`${props.id}-help`}
        class={entry.message ? 'field__error' : 'field__help'}
        aria-live="polite"
      >
        {entry.message ??
          (props.tokenSaidNearby && props.tokenState === 'missing'
            ? 'Type or paste channel IDs.'
            : pickerHelp(view, list))}
      </p>
    </div>
  );
}

/** The line under the field: the list's state, and what typing names can and cannot find. */
function pickerHelp(
  view: DestinationsView | undefined,
  list: readonly DestinationOption[] | undefined,
): string {
  return (
    [
      view?.problem
        ? view.problem.message
        : view?.unlisted && list
          ? unlistedMessage(view.unlisted)
          : list
            ? 'Type a name to search, or paste channel IDs.'
            : 'Loading channels… You can paste or type channel IDs meanwhile.',
      // Said here, where names are typed: user IDs keep working without the scope.
      view?.peopleProblem?.message,
    ]
      // Both lists fail alike without a token: its sentence is said once.
      .filter((line, i, lines) => Boolean(line) && lines.indexOf(line) === i)
      .join(' ')
  );
}

function ChosenChips(props: {
  selected: readonly ChannelRef[];
  list: readonly DestinationOption[] | undefined;
  onRemove: (id: string) => void;
}) {
  return (
    <ul class="chips" aria-label="Chosen channels">
      {props.selected.map((s) => {
        const o = props.list?.find((option) => option.id === s.id);
        const saved = s.label ? (s.label.startsWith('@') ? s.label : `#${s.label}`) : s.id;
        const name = o ? optionLabel(o) : saved;
        return (
          <li key={s.id} class="chip">
            <span>
              <DestinationName label={name} />
            </span>
            <button
              type="button"
              class="chip__remove"
              aria-label={`Remove ${name}`}
              onClick={() => props.onRemove(s.id)}
            >
              ×
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function PickerOptions(props: {
  id: string;
  label: string;
  options: readonly DestinationOption[];
  expanded: boolean;
  active: number;
  chosen: ReadonlySet<string>;
  optionId: (index: number) => string;
  onChoose: (index: number) => void;
  signedIn: boolean;
}) {
  const { active } = props;
  return (
    <div
      id={props.id}
      role="listbox"
      class="picker-list"
      hidden={!props.expanded}
      aria-label={props.label}
    >
      {props.options.map((c, i) => {
        const kind = KIND[c.kind];
        return (
          <div
            key={c.id}
            id={props.optionId(i)}
            role="option"
            // Focus stays in the combobox (aria-activedescendant); options are never tabbed to.
            tabIndex={-1}
            aria-selected={i === active}
            aria-disabled={c.isMember === false}
            class={`picker-option${i === active ? ' picker-option--active' : ''}${c.isMember === false ? ' picker-option--refused' : ''}`}
            onMouseDown={(e) => {
              e.preventDefault();
              props.onChoose(i);
            }}
          >
            <span class="picker-option__icon" aria-hidden="true">
              {kind.icon}
            </span>
            <span class="picker-option__name">{c.name}</span>
            <span class="visually-hidden">, {kind.label}</span>
            {props.chosen.has(c.id) ? <span class="picker-option__note">added</span> : null}
            {c.isMember === false ? (
              <span class="picker-option__note">
                {props.signedIn
                  ? 'not a member: join it in Slack first'
                  : 'not a member: invite the app first'}
              </span>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
