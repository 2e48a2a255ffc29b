import { describe, expect, it } from 'vitest';
import { acceleratorFromKey } from './accelerator-keys';

const press = (
  key: string,
  code: string,
  mods: Partial<Record<'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey', boolean>> = {},
) => ({
  key,
  code,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...mods,
});

describe('acceleratorFromKey', () => {
  it('turns a modified key press into an Electron accelerator', () => {
    expect(acceleratorFromKey(press('U', 'KeyU', { ctrlKey: true, shiftKey: true }))).toBe(
      'CommandOrControl+Shift+U',
    );
    expect(acceleratorFromKey(press('µ', 'KeyM', { metaKey: true, altKey: true }))).toBe(
      'CommandOrControl+Alt+M',
    );
    expect(acceleratorFromKey(press('F5', 'F5', { altKey: true }))).toBe('Alt+F5');
    expect(acceleratorFromKey(press(' ', 'Space', { ctrlKey: true }))).toBe(
      'CommandOrControl+Space',
    );
  });

  it('leaves typing, Tab and editing keys alone', () => {
    expect(acceleratorFromKey(press('u', 'KeyU'))).toBeNull();
    expect(acceleratorFromKey(press('Tab', 'Tab', { shiftKey: true }))).toBeNull();
    expect(acceleratorFromKey(press('v', 'KeyV', { ctrlKey: true }))).toBeNull();
    expect(acceleratorFromKey(press('Control', 'ControlLeft', { ctrlKey: true }))).toBeNull();
  });
});
