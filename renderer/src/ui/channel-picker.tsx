// One searchable channel picker (an ARIA combobox, keyboard first) for the share sheet and the
// preset editor. It lists the workspace's conversations and people from the core's cached
// lists: type to filter by name, arrows to move, Enter to add. Channels the app is not in are
// shown with the reason and cannot be added (one the list says nothing about can). A person is
// offered whether or not a DM with them exists yet, shown by name with the person icon. Pasting
// IDs (or a list of them) still works, and so does typing one when the lists are unavailable or
// leave a kind out (DMs without im:read, people without users:read), which the help line says.
// It only ever adds to what is chosen.
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { normaliseChannels } from '../../../main/portable/channels';
import { unlistedMessage } from '../../../main/portable/conversation-types';
import { peopleNamed, personLabel } from '../../../main/portable/people-names';
import type { ChannelRef, DestinationsView } from '../../../preload/contract';
import { api } from '../bridge';
import {
  type DestinationOption,
  destinationOptions,
  matchingOptions,
  optionLabel,
} from './destination-options';
import { Icon } from './icon';
import { DestinationName, PersonIcon } from './person-icon';

const KIND: Record<DestinationOption['kind'], { icon: ComponentChildren; label: string }> = {
  public: { icon: '#', label: 'public channel' },
  private: { icon: <Icon name="lock" />, label: 'private channel' },
  dm: { icon: <PersonIcon />, label: 'direct message' },
  person: { icon: <PersonIcon />, label: 'direct message' },
  'group-dm': { icon: '👥', label: 'group direct message' },
};

const MAX_OPTIONS = 50;
/** Conversation IDs (C, G, D) and people's (U, W). */
const ID = /^[CGDUW][A-Z0-9]+$/;

function useConversations(
  workspaceId: string,
  tokenState: string | undefined,
): DestinationsView | undefined {
  const [view, setView] = useState<DestinationsView>();
  // Asked again when the token changes: "no token saved" no longer holds once one is.
  useEffect(() => {
    let live = true;
    setView(undefined);
    if (!workspaceId) return;
    void (async () => {
      try {
        const first = await api().listConversations(workspaceId, {});
        if (!live) return;
        setView(first);
        if (first.refreshing) {
          const fresh = await api().listConversations(workspaceId, { wait: true });
          if (live) setView(fresh);
        }
      } catch {
        // No list: typed IDs still work.
      }
    })();
    return () => {
      live = false;
    };
  }, [workspaceId, tokenState]);
  return view;
}

export function ChannelPicker(props: {
  id: string;
  label: string;
  workspaceId: string;
  selected: readonly ChannelRef[];
  onAdd: (ref: ChannelRef) => void;
  /** Without it, chosen channels are not shown as removable chips (the preset editor lists them). */
  onRemove?: (id: string) => void;
  invalid?: boolean;
  /** The workspace's token as Settings says it ("saved", "missing", "refused"). */
  tokenState?: string;
}) {
  const view = useConversations(props.workspaceId, props.tokenState);
  const people = view?.people;
  const list = useMemo(
    () => (view?.conversations ? destinationOptions(view.conversations, people) : undefined),
    [view?.conversations, people],
  );
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [message, setMessage] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const options = useMemo(
    () => (list ? matchingOptions(list, text, MAX_OPTIONS) : []),
    [list, text],
  );
  const chosen = new Set(props.selected.map((s) => s.id));
  const listId = `${props.id}-list`;
  const optionId = (i: number) => `${props.id}-option-${i}`;

  /** A saved label: a channel's name without `#`, a person's with `@` (see channelName). */
  const refLabel = (o: DestinationOption) =>
    o.kind === 'dm' || o.kind === 'person' ? optionLabel(o) : o.name;

  const add = (o: DestinationOption): boolean => {
    if (o.isMember === false) {
      setMessage(`The app is not in ${optionLabel(o)}: invite the app first.`);
      return false;
    }
    if (!chosen.has(o.id)) props.onAdd({ id: o.id, label: refLabel(o) });
    setMessage(null);
    return true;
  };

  /** `@name` among the people; a message when it names no one, or several. */
  const person = (entry: string): DestinationOption | string | undefined => {
    if (!entry.startsWith('@') || !people) return undefined;
    const found = peopleNamed(entry.slice(1), people);
    if (found.length > 1) {
      return `${entry} could be more than one person (${found.map((p) => `${p.id} ${personLabel(p)}`).join(', ')}): paste their user ID`;
    }
    const one = found[0];
    if (!one) return undefined;
    // Their DM when there is one, else their user ID (the service opens the DM).
    return (
      list?.find((o) => o.id === one.id || o.personId === one.id) ?? {
        id: one.id,
        name: personLabel(one).slice(1),
        kind: 'person',
        isMember: true,
        names: [],
      }
    );
  };

  /** Typed or pasted text: IDs go in as they are, names are looked up. */
  const addText = (raw: string): boolean => {
    const check = normaliseChannels(raw);
    if (!check.ok) {
      setMessage(check.error);
      return false;
    }
    const problems: string[] = [];
    for (const entry of check.channels) {
      const someone = person(entry);
      if (typeof someone === 'string') {
        problems.push(someone);
        continue;
      }
      const byName = list?.find(
        (o) => o.name.toLowerCase() === entry.replace(/^[#@]/, '').toLowerCase(),
      );
      const known = someone ?? list?.find((o) => o.id === entry) ?? byName;
      if (known) {
        if (!add(known)) problems.push(`${optionLabel(known)}: invite the app first`);
      } else if (ID.test(entry)) {
        if (!chosen.has(entry)) props.onAdd({ id: entry });
      } else if (entry.startsWith('@')) {
        problems.push(
          people
            ? `no one named ${entry}`
            : `${entry}: ${view?.peopleProblem?.message ?? 'the people are not loaded'}`,
        );
      } else {
        problems.push(`no channel named ${entry}`);
      }
    }
    setMessage(problems.length > 0 ? `Not added: ${problems.join('; ')}.` : null);
    return problems.length === 0;
  };

  const choose = (index: number) => {
    const c = options[index];
    if (c) {
      if (add(c)) setText('');
    } else if (text.trim() !== '' && addText(text)) setText('');
  };

  const onKeyDown = (e: KeyboardEvent) => {
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        setOpen(true);
        setActive((i) =>
          options.length === 0 ? 0 : Math.min(options.length - 1, i + (open ? 1 : 0)),
        );
        return;
      case 'ArrowUp':
        e.preventDefault();
        setActive((i) => Math.max(0, i - 1));
        return;
      case 'Home':
      case 'End':
        if (!open || options.length === 0) return;
        e.preventDefault();
        setActive(e.key === 'Home' ? 0 : options.length - 1);
        return;
      case 'Enter':
        // Adding a channel never submits the form around the picker.
        if (text.trim() === '' && !open) return;
        e.preventDefault();
        choose(open ? active : -1);
        return;
      case 'Escape':
        if (!open) return;
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
        return;
      case 'Backspace':
        if (text === '' && props.onRemove && props.selected.length > 0) {
          props.onRemove(props.selected.at(-1)!.id);
        }
        return;
    }
  };

  const onPaste = (e: ClipboardEvent) => {
    const pasted = e.clipboardData?.getData('text') ?? '';
    if (!/[,\s]/.test(pasted.trim()) && !ID.test(pasted.trim())) return;
    e.preventDefault();
    if (addText(pasted.replace(/\s+/g, ','))) setText('');
  };

  const expanded = open && options.length > 0;
  const help = [
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
    .filter(Boolean)
    .join(' ');

  return (
    <div class="field field--grow channel-picker">
      <label for={props.id} class="field__label">
        {props.label}
      </label>
      {props.onRemove && props.selected.length > 0 ? (
        <ul class="chips" aria-label="Chosen channels">
          {props.selected.map((s) => {
            const o = list?.find((option) => option.id === s.id);
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
                  onClick={() => {
                    props.onRemove?.(s.id);
                    inputRef.current?.focus();
                  }}
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      <div class="picker-anchor">
        <input
          id={props.id}
          ref={inputRef}
          class={`input${props.invalid ? ' input--invalid' : ''}`}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded ? optionId(active) : undefined}
          aria-describedby={`${props.id}-help`}
          aria-invalid={props.invalid === true}
          value={text}
          placeholder="#design-review, @alice or C0123ABCD"
          spellcheck={false}
          autocomplete="off"
          onInput={(e) => {
            setText(e.currentTarget.value);
            setActive(0);
            setOpen(true);
            setMessage(null);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        <div
          id={listId}
          role="listbox"
          class="picker-list"
          hidden={!expanded}
          aria-label={props.label}
        >
          {options.map((c, i) => {
            const kind = KIND[c.kind];
            return (
              <div
                key={c.id}
                id={optionId(i)}
                role="option"
                // Focus stays in the combobox (aria-activedescendant); options are never tabbed to.
                tabIndex={-1}
                aria-selected={i === active}
                aria-disabled={c.isMember === false}
                class={`picker-option${i === active ? ' picker-option--active' : ''}${c.isMember === false ? ' picker-option--refused' : ''}`}
                onMouseDown={(e) => {
                  e.preventDefault();
                  setActive(i);
                  choose(i);
                }}
              >
                <span class="picker-option__icon" aria-hidden="true">
                  {kind.icon}
                </span>
                <span class="picker-option__name">{c.name}</span>
                <span class="visually-hidden">, {kind.label}</span>
                {chosen.has(c.id) ? <span class="picker-option__note">added</span> : null}
                {c.isMember === false ? (
                  <span class="picker-option__note">not a member: invite the app first</span>
                ) : null}
              </div>
            );
          })}
        </div>
      </div>
      <p
        id={`${props.id}-help`}
        class={message ? 'field__error' : 'field__help'}
        aria-live="polite"
      >
        {message ?? help}
      </p>
    </div>
  );
}
