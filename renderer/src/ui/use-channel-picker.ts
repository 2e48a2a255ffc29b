// The channel picker's state and keys: the list (searched as the person types), whether it is
// open, the option in focus, and what typing, pasting, clicking and each key do. Apart from the
// markup so the combobox's behaviour reads in one place.
import { useMemo, useRef, useState } from 'preact/hooks';
import type { ChannelRef } from '../../../preload/contract';
import { ID, useChannelEntry } from './channel-entry';
import { destinationOptions, matchingOptions } from './destination-options';
import { useConversations } from './use-conversations';

const MAX_OPTIONS = 50;

export interface PickerProps {
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
  /** A notice beside the picker already says the token is missing: the help line does not. */
  tokenSaidNearby?: boolean;
  /** Signed in with Slack: a channel the person is not in is joined, not an app invited. */
  signedIn?: boolean;
}

export function useChannelPicker(props: PickerProps) {
  const view = useConversations(props.workspaceId, props.tokenState);
  const people = view?.people;
  const list = useMemo(
    () => (view?.conversations ? destinationOptions(view.conversations, people) : undefined),
    [view?.conversations, people],
  );
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const entry = useChannelEntry({
    view,
    list,
    selected: props.selected,
    onAdd: props.onAdd,
    signedIn: props.signedIn === true,
  });
  const inputRef = useRef<HTMLInputElement>(null);
  const options = useMemo(
    () => (list ? matchingOptions(list, text, MAX_OPTIONS) : []),
    [list, text],
  );

  const choose = (index: number) => {
    const c = options[index];
    if (c) {
      if (entry.add(c)) setText('');
    } else if (text.trim() !== '' && entry.addText(text)) setText('');
  };

  const onKeyDown = (e: KeyboardEvent) =>
    comboboxKey(e, {
      options: options.length,
      open,
      active,
      text,
      selected: props.selected,
      setOpen,
      setActive,
      choose,
      onRemove: props.onRemove,
    });

  const onPaste = (e: ClipboardEvent) => {
    const pasted = e.clipboardData?.getData('text') ?? '';
    if (!/[,\s]/.test(pasted.trim()) && !ID.test(pasted.trim())) return;
    e.preventDefault();
    if (entry.addText(pasted.replace(/\s+/g, ','))) setText('');
  };

  const type = (value: string) => {
    setText(value);
    setActive(0);
    setOpen(true);
    entry.setMessage(null);
  };

  const click = (index: number) => {
    setActive(index);
    choose(index);
  };

  const optionId = (i: number) => `${props.id}-option-${i}`;
  return {
    view,
    list,
    text,
    open,
    active,
    options,
    entry,
    inputRef,
    optionId,
    setOpen,
    onKeyDown,
    onPaste,
    type,
    click,
  };
}

/** What the combobox does with a key: move, add, close, or take back the last chip. */
function comboboxKey(
  e: KeyboardEvent,
  c: {
    options: number;
    open: boolean;
    active: number;
    text: string;
    selected: readonly ChannelRef[];
    setOpen: (open: boolean) => void;
    setActive: (change: number | ((i: number) => number)) => void;
    choose: (index: number) => void;
    onRemove: ((id: string) => void) | undefined;
  },
) {
  switch (e.key) {
    case 'ArrowDown':
      e.preventDefault();
      c.setOpen(true);
      c.setActive((i) => (c.options === 0 ? 0 : Math.min(c.options - 1, i + (c.open ? 1 : 0))));
      return;
    case 'ArrowUp':
      e.preventDefault();
      c.setActive((i) => Math.max(0, i - 1));
      return;
    case 'Home':
    case 'End':
      if (!c.open || c.options === 0) return;
      e.preventDefault();
      c.setActive(e.key === 'Home' ? 0 : c.options - 1);
      return;
    case 'Enter':
      // Adding a channel never submits the form around the picker.
      if (c.text.trim() === '' && !c.open) return;
      e.preventDefault();
      c.choose(c.open ? c.active : -1);
      return;
    case 'Escape':
      if (!c.open) return;
      e.preventDefault();
      e.stopPropagation();
      c.setOpen(false);
      return;
    case 'Backspace':
      if (c.text === '' && c.onRemove && c.selected.length > 0) {
        c.onRemove(c.selected.at(-1)!.id);
      }
      return;
  }
}
