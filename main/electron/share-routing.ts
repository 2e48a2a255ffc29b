// Where paths to share go: to the share sheet in the main window (file-manager hand-off, tray
// drop, clipboard), or straight to a preset, with problems told in a notification.

import type { AppService } from '../../preload/contract';
import { errorMessage } from '../portable/error-message';
import type { NotificationContent } from './notifications';
import type { Windows } from './windows';

export interface ShareRouting {
  /** Opens the share sheet with these paths. */
  requestShare(paths: string[]): void;
  /** Shares straight to a preset; problems are told in a notification. */
  shareWithPreset(presetId: string, paths: string[]): Promise<void>;
  /** To the preset when there is one, else to the share sheet; nothing when there are no paths. */
  shareTo(presetId: string | null, paths: string[]): void;
  /** The paths a page still loading did not get as an event (the page asks for them). */
  takePendingPaths(): string[];
}

export function createShareRouting(deps: {
  service: Pick<AppService, 'share' | 'offerImages'>;
  windows: Pick<Windows, 'showMain' | 'sendToMain'>;
  notify(content: NotificationContent): void;
}): ShareRouting {
  const { service, windows, notify } = deps;
  let pending: string[] = [];

  const requestShare = (paths: string[]) => {
    // Handed over by the person (tray, file manager, clipboard, a capture): the sheet may show them.
    service.offerImages(paths);
    const seen = new Set(pending);
    pending = [...pending, ...paths.filter((p) => !seen.has(p) && seen.add(p))];
    windows.showMain('share');
    // A loaded page gets them now; a page still loading takes them itself (takePendingPaths).
    if (pending.length > 0 && windows.sendToMain('share-requested', { paths: pending })) {
      pending = [];
    }
  };

  const shareWithPreset = async (presetId: string, paths: string[]) => {
    try {
      const result = await service.share({ target: { presetId }, paths });
      if (result.refused.length > 0) {
        const first = result.refused[0]!;
        notify({
          title:
            result.refused.length === 1
              ? 'One file was not shared'
              : `${result.refused.length} files were not shared`,
          body: `${first.path}: ${first.reason}`,
        });
      }
    } catch (error) {
      notify({
        title: 'Could not share',
        body: errorMessage(error),
        act: { open: 'presets' },
        important: true,
      });
    }
  };

  const shareTo = (presetId: string | null, paths: string[]) => {
    if (paths.length === 0) return;
    if (presetId) void shareWithPreset(presetId, paths);
    else requestShare(paths);
  };

  const takePendingPaths = () => {
    const paths = pending;
    pending = [];
    return paths;
  };

  return { requestShare, shareWithPreset, shareTo, takePendingPaths };
}
