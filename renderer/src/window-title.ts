// The window's title comes from the page: Electron lets a page's <title> replace the
// BrowserWindow's `title` option (https://www.electronjs.org/docs/latest/api/browser-window,
// event 'page-title-updated'), so each view names itself here, and the drop window keeps the
// name its window is created with (main/electron/windows.ts).
import type { View } from '../../preload/contract';

export const DROP_WINDOW_TITLE = 'Drop files to share';

const VIEW_NAMES: Record<View, string> = {
  drop: 'Drop files',
  share: 'Share',
  queue: 'Queue',
  history: 'History',
  presets: 'Presets',
  settings: 'Settings',
};

/** The title of a window showing `view`; `compact` is the small drop window. */
export function windowTitle(view: View, compact: boolean): string {
  if (view === 'drop') return compact ? DROP_WINDOW_TITLE : 'Trayshare';
  return `${VIEW_NAMES[view]} – Trayshare`;
}
