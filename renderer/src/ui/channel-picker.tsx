// One searchable channel picker (an ARIA combobox, keyboard first) for the share sheet and the
// preset editor. It lists the workspace's conversations from the core's cached list: type to
// filter by name, arrows to move, Enter to add. Channels the app is not in are shown with the
// reason and cannot be added. Pasting IDs (or a list of them) still works, and so does typing
// one when the list is unavailable. It only ever adds to what is chosen.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { displayName } from '../../../main/core/conversations/channel-names';
import { normaliseChannels } from '../../../main/core/upload/channels';
import type { ChannelRef, Conversation, ConversationsView } from '../../../preload/contract';
import { api } from '../bridge';
import { Icon } from './icon';

const KIND = {
  public: { icon: '#', label: 'public channel' },
  private: { icon: <Icon name="lock" />, label: 'private channel' },
  dm: { icon: '👤', label: 'direct message' },
  'group-dm': { icon: '👥', label: 'group direct message' },
} as const;

const MAX_OPTIONS = 50;
const ID = /^[CGD][A-Z0-9]+$/;

function useConversations(
  workspaceId: string,
  tokenState: string | undefined,
): ConversationsView | undefined {
  const [view, setView] = useState<ConversationsView>();
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

/** An ID or the exact name first (so Enter on "#design" adds #design), then prefixes, then the rest. */
export function matches(list: readonly Conversation[], query: string): Conversation[] {
  const q = query.trim().replace(/^[#@]/, '').toLowerCase();
  if (q === '') return list.slice(0, MAX_OPTIONS);
  const rank = (c: Conversation): number => {
    const name = c.name.toLowerCase();
    if (c.id.toLowerCase() === q) return 0;
    if (name === q) return 1;
    if (name.startsWith(q)) return 2;
    return name.includes(q) ? 3 : -1;
  };
  return list
    .map((c) => ({ c, rank: rank(c) }))
    .filter((m) => m.rank >= 0)
    .sort((a, b) => a.rank - b.rank)
    .slice(0, MAX_OPTIONS)
    .map((m) => m.c);
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
  const list = view?.conversations;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [message, setMessage] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const options = useMemo(() => (list ? matches(list, text) : []), [list, text]);
  const chosen = new Set(props.selected.map((s) => s.id));
  const listId = `${props.id}-list`;
  const optionId = (i: number) => `${props.id}-option-${i}`;

  const labelFor = (id: string): string | undefined => {
    const c = list?.find((conv) => conv.id === id);
    return c ? displayName(c).slice(1) : undefined;
  };

  const add = (c: Conversation): boolean => {
    if (!c.isMember) {
      setMessage(`The app is not in ${displayName(c)}: invite the app first.`);
      return false;
    }
    if (!chosen.has(c.id)) props.onAdd({ id: c.id, label: c.name });
    setMessage(null);
    return true;
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
      const byName = list?.find(
        (c) => c.name.toLowerCase() === entry.replace(/^[#@]/, '').toLowerCase(),
      );
      const known = list?.find((c) => c.id === entry) ?? byName;
      if (known) {
        if (!add(known)) problems.push(`${displayName(known)}: invite the app first`);
      } else if (ID.test(entry)) {
        if (!chosen.has(entry)) props.onAdd({ id: entry, label: labelFor(entry) });
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
  const help = view?.problem
    ? view.problem.message
    : list
      ? 'Type a name to search, or paste channel IDs.'
      : 'Loading channels… You can paste or type channel IDs meanwhile.';

  return (
    <div class="field field--grow channel-picker">
      <label for={props.id} class="field__label">
        {props.label}
      </label>
      {props.onRemove && props.selected.length > 0 ? (
        <ul class="chips" aria-label="Chosen channels">
          {props.selected.map((s) => {
            const c = list?.find((conv) => conv.id === s.id);
            const name = c ? displayName(c) : s.label ? `#${s.label}` : s.id;
            return (
              <li key={s.id} class="chip">
                <span>{name}</span>
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
          placeholder="#design-review or C0123ABCD"
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
                aria-disabled={!c.isMember}
                class={`picker-option${i === active ? ' picker-option--active' : ''}${c.isMember ? '' : ' picker-option--refused'}`}
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
                {c.isMember ? null : (
                  <span class="picker-option__note">not a member: invite the app first</span>
                )}
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
