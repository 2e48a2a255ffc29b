import { describe, expect, it } from 'vitest';
import { acceleratorFromLabel, shortcutLabel } from './shortcut-label';

describe('shortcuts as the OS writes them', () => {
  it.each([
    ['CommandOrControl+Shift+U', 'Ctrl+Shift+U', '⇧⌘U'],
    ['CommandOrControl+Shift+S', 'Ctrl+Shift+S', '⇧⌘S'],
    ['Control+Alt+U', 'Ctrl+Alt+U', '⌃⌥U'],
    ['Shift+CmdOrCtrl+Alt+F5', 'Ctrl+Alt+Shift+F5', '⌥⇧⌘F5'],
    ['Alt+Space', 'Alt+Space', '⌥Space'],
    ['CommandOrControl+Up', 'Ctrl+Up', '⌘↑'],
    ['Super+Return', 'Super+Enter', '⌘↩'],
    ['CommandOrControl+Plus', 'Ctrl++', '⌘+'],
    ['', '', ''],
  ])('%s reads "%s" on Windows and Linux, "%s" on macOS', (accelerator, other, mac) => {
    expect(shortcutLabel(accelerator, false)).toBe(other);
    expect(shortcutLabel(accelerator, true)).toBe(mac);
    expect(`${shortcutLabel(accelerator, false)}${shortcutLabel(accelerator, true)}`).not.toMatch(
      /CommandOrControl|CmdOrCtrl/,
    );
  });

  it('takes back what a person reads or types as the accelerator to register', () => {
    expect(acceleratorFromLabel('Ctrl+Shift+U', false)).toBe('CommandOrControl+Shift+U');
    expect(acceleratorFromLabel('ctrl+alt+u', false)).toBe('CommandOrControl+Alt+U');
    expect(acceleratorFromLabel('⇧⌘U', true)).toBe('Command+Shift+U');
    expect(acceleratorFromLabel('⌃⌥U', true)).toBe('Control+Alt+U');
    expect(acceleratorFromLabel('Cmd+Shift+U', true)).toBe('Command+Shift+U');
    expect(acceleratorFromLabel('CommandOrControl+Shift+U', true)).toBe('CommandOrControl+Shift+U');
    expect(acceleratorFromLabel('Ctrl++', false)).toBe('CommandOrControl+Plus');
    expect(acceleratorFromLabel('⌘↑', true)).toBe('Command+Up');
    expect(acceleratorFromLabel('  ', false)).toBe('');
  });

  it('round-trips every label it writes', () => {
    for (const accelerator of ['CommandOrControl+Shift+U', 'Control+Alt+F12', 'Alt+Shift+Left']) {
      for (const mac of [false, true]) {
        const label = shortcutLabel(accelerator, mac);
        expect(shortcutLabel(acceleratorFromLabel(label, mac), mac)).toBe(label);
      }
    }
  });
});
