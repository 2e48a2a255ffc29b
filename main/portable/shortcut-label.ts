// Shortcuts as people read and type them. Electron stores accelerators
// ("CommandOrControl+Shift+U"); a person sees what their OS writes in its menus: "Ctrl+Shift+U"
// on Windows and Linux, "⇧⌘U" on macOS (Apple's order: ⌃ ⌥ ⇧ ⌘, then the key, no separator).
// Plain code with no imports, shared by the renderer and the Electron shell.

type Modifier = 'control' | 'alt' | 'shift' | 'command' | 'commandOrControl' | 'super';

const MODIFIERS: Record<string, Modifier> = {
  commandorcontrol: 'commandOrControl',
  cmdorctrl: 'commandOrControl',
  command: 'command',
  cmd: 'command',
  '⌘': 'command',
  control: 'control',
  ctrl: 'control',
  '⌃': 'control',
  alt: 'alt',
  option: 'alt',
  opt: 'alt',
  '⌥': 'alt',
  altgr: 'alt',
  shift: 'shift',
  '⇧': 'shift',
  super: 'super',
  meta: 'super',
  win: 'super',
  windows: 'super',
};

const MAC_KEYS: Record<string, string> = {
  up: '↑',
  down: '↓',
  left: '←',
  right: '→',
  return: '↩',
  enter: '↩',
  esc: '⎋',
  escape: '⎋',
  backspace: '⌫',
  delete: '⌦',
  tab: '⇥',
  space: 'Space',
  plus: '+',
};

const OTHER_KEYS: Record<string, string> = {
  return: 'Enter',
  enter: 'Enter',
  escape: 'Esc',
  esc: 'Esc',
  plus: '+',
};

// From a symbol or word a person typed back to Electron's name for the key.
const ACCELERATOR_KEYS: Record<string, string> = {
  '↑': 'Up',
  '↓': 'Down',
  '←': 'Left',
  '→': 'Right',
  '↩': 'Return',
  enter: 'Return',
  '⎋': 'Esc',
  escape: 'Esc',
  '⌫': 'Backspace',
  '⌦': 'Delete',
  '⇥': 'Tab',
};

/** The modifiers held, each once, and the key, from an accelerator or what a person typed. */
function parts(text: string): { mods: Set<Modifier>; key: string } {
  const mods = new Set<Modifier>();
  let rest = text.trim();
  // macOS symbols come without separators: "⇧⌘U".
  while (rest !== '' && MODIFIERS[rest[0]!] !== undefined && /[⌘⌃⌥⇧]/.test(rest[0]!)) {
    mods.add(MODIFIERS[rest[0]!]!);
    rest = rest.slice(1).replace(/^\+/, '');
  }
  // "Ctrl++" is Ctrl and the plus key.
  const tokens = rest.endsWith('++') ? [...rest.slice(0, -2).split('+'), '+'] : rest.split('+');
  let key = '';
  for (const raw of tokens) {
    const token = raw.trim();
    if (token === '') continue;
    const mod = MODIFIERS[token.toLowerCase()];
    if (mod) mods.add(mod);
    else key = token;
  }
  return { mods, key };
}

/** "CommandOrControl+Shift+U" as the OS writes it: "Ctrl+Shift+U", or "⇧⌘U" on a Mac. */
export function shortcutLabel(accelerator: string, mac: boolean): string {
  if (accelerator.trim() === '') return '';
  const { mods, key } = parts(accelerator);
  const shown = key.length === 1 ? key.toUpperCase() : key;
  if (mac) {
    const keyLabel = MAC_KEYS[key.toLowerCase()] ?? shown;
    const symbols = [
      mods.has('control') ? '⌃' : '',
      mods.has('alt') ? '⌥' : '',
      mods.has('shift') ? '⇧' : '',
      mods.has('command') || mods.has('commandOrControl') || mods.has('super') ? '⌘' : '',
    ].join('');
    return `${symbols}${keyLabel}`;
  }
  const words = [
    mods.has('control') || mods.has('commandOrControl') || mods.has('command') ? 'Ctrl' : '',
    mods.has('alt') ? 'Alt' : '',
    mods.has('shift') ? 'Shift' : '',
    mods.has('super') ? 'Super' : '',
  ].filter((w) => w !== '');
  return [...words, OTHER_KEYS[key.toLowerCase()] ?? shown].join('+');
}

/**
 * What a person typed ("Ctrl+Shift+U", "⇧⌘U", "cmd+shift+u", or an accelerator) as the
 * accelerator Electron registers. Ctrl on Windows and Linux is CommandOrControl, the same key
 * there; on a Mac, Ctrl is the Control key and ⌘ is Command.
 */
export function acceleratorFromLabel(text: string, mac: boolean): string {
  if (text.trim() === '') return '';
  const { mods, key } = parts(text);
  const out: string[] = [];
  if (mods.has('commandOrControl')) out.push('CommandOrControl');
  if (mods.has('control')) out.push(mac ? 'Control' : 'CommandOrControl');
  if (mods.has('command')) out.push(mac ? 'Command' : 'CommandOrControl');
  if (mods.has('alt')) out.push('Alt');
  if (mods.has('shift')) out.push('Shift');
  if (mods.has('super')) out.push('Super');
  const named = ACCELERATOR_KEYS[key] ?? ACCELERATOR_KEYS[key.toLowerCase()];
  const keyName = named ?? (key === '+' ? 'Plus' : key.length === 1 ? key.toUpperCase() : key);
  return [...new Set(out), keyName].filter((p) => p !== '').join('+');
}
