// Turns a key press into an Electron accelerator ("CommandOrControl+Shift+U"), so people can
// press the shortcut they want instead of spelling it.

interface KeyLike {
  key: string;
  code: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

const NAMED: Record<string, string> = {
  ' ': 'Space',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  Escape: 'Esc',
  Enter: 'Return',
  Backspace: 'Backspace',
  Delete: 'Delete',
  Insert: 'Insert',
  Home: 'Home',
  End: 'End',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
};

const EDITING = new Set(['A', 'C', 'V', 'X', 'Z']);

function keyName(e: KeyLike): string | null {
  if (/^Key[A-Z]$/.test(e.code)) return e.code.slice(3);
  if (/^Digit[0-9]$/.test(e.code)) return e.code.slice(5);
  if (/^F([1-9]|1[0-9]|2[0-4])$/.test(e.key)) return e.key;
  return NAMED[e.key] ?? null;
}

/**
 * The accelerator for a key press with at least one of Ctrl, Alt or Meta held, or null for
 * anything else: plain typing, Tab and Shift+Tab keep working in the field.
 */
export function acceleratorFromKey(e: KeyLike): string | null {
  if (!e.ctrlKey && !e.altKey && !e.metaKey) return null;
  const key = keyName(e);
  if (!key) return null;
  // Copy, paste, cut, undo and select-all keep their meaning while editing the field.
  if (!e.altKey && !e.shiftKey && EDITING.has(key)) return null;
  const parts: string[] = [];
  if (e.ctrlKey || e.metaKey) parts.push('CommandOrControl');
  if (e.altKey) parts.push('Alt');
  if (e.shiftKey) parts.push('Shift');
  parts.push(key);
  return parts.join('+');
}
