// The global shortcut. Registration fails when another app holds the combination or the
// desktop refuses global shortcuts (Wayland without the portal): then the previous working
// shortcut stays registered and the caller tells the person, who can pick another.
import { shortcutLabel } from '../portable/shortcut-label';

export interface GlobalShortcutLike {
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

type ShortcutResult = { ok: true } | { ok: false; error: string };

export interface ShortcutManager {
  /** Makes `accelerator` the shortcut ('' turns it off). Unchanged on failure. */
  apply(accelerator: string): ShortcutResult;
  /** The shortcut registered now ('' for none). */
  current(): string;
  dispose(): void;
}

export function shortcutRefusedMessage(accelerator: string, platform: NodeJS.Platform): string {
  const hint =
    platform === 'linux'
      ? ' Another app may use it, or this desktop does not let apps register global shortcuts (Wayland).'
      : ' Another app probably uses it.';
  return `The shortcut ${shortcutLabel(accelerator, platform === 'darwin')} could not be registered.${hint} Choose another in Settings.`;
}

export function createShortcutManager(opts: {
  globalShortcut: GlobalShortcutLike;
  onPress: () => void;
  platform: NodeJS.Platform;
}): ShortcutManager {
  let current = '';
  const register = (accelerator: string): ShortcutResult => {
    let ok: boolean;
    try {
      ok = opts.globalShortcut.register(accelerator, opts.onPress);
    } catch {
      // Electron throws on a string it cannot parse as an accelerator.
      return {
        ok: false,
        error: `"${accelerator}" is not a shortcut Trayshare understands (example: ${shortcutLabel('CommandOrControl+Shift+U', opts.platform === 'darwin')}).`,
      };
    }
    return ok
      ? { ok: true }
      : { ok: false, error: shortcutRefusedMessage(accelerator, opts.platform) };
  };
  return {
    apply(accelerator) {
      const next = accelerator.trim();
      if (next === current) return { ok: true };
      if (next === '') {
        opts.globalShortcut.unregister(current);
        current = '';
        return { ok: true };
      }
      const result = register(next);
      if (!result.ok) return result;
      if (current !== '') opts.globalShortcut.unregister(current);
      current = next;
      return result;
    },
    current: () => current,
    dispose() {
      if (current !== '') opts.globalShortcut.unregister(current);
      current = '';
    },
  };
}
