// The application menu. Electron's default one (File, Edit, View with Reload and Developer
// Tools, Window, Help) would show in every window on Windows and Linux, the drop window too:
// there the app has none. macOS always shows a menu bar for the active app, and copy and paste
// in text fields go through its Edit menu, so there it keeps the app and Edit menus only.
import type { MenuItemConstructorOptions } from 'electron';

export function applicationMenuTemplate(
  platform: NodeJS.Platform,
): MenuItemConstructorOptions[] | null {
  if (platform !== 'darwin') return null;
  return [{ role: 'appMenu' }, { role: 'editMenu' }];
}
