// Capture… (the tray item and the capture shortcut): Trayshare's windows step aside, the OS's
// capture UI (or Windows' overlay) takes the image, and the image opens in the share sheet like
// a pasted screenshot. A cancel puts the windows back and says nothing; a failure says what to do.
import type { AppService } from '../../preload/contract';
import type { CaptureSource } from '../core/capture/capture-outcome';
import { SCREEN_RECORDING_HELP } from '../core/capture/macos';
import type { Capturer } from '../core/capture/take-capture';
import type { NotificationContent } from './notifications';
import type { ShareRouting } from './share-routing';
import type { Windows } from './windows';

/** How long hidden windows take to leave the screen before the capture UI starts. */
const HIDE_SETTLE_MS = 200;

export interface CaptureDeps {
  service: Pick<AppService, 'takeCapture'>;
  windows: Pick<Windows, 'hideForCapture'>;
  routing: Pick<ShareRouting, 'requestShare'>;
  /** The OS's tool (main/core/capture/capturers.ts) or the Windows overlay. */
  capturer: Capturer;
  /**
   * macOS: Electron's systemPreferences.getMediaAccessStatus('screen'). Without the permission
   * screencapture pictures only the desktop and Trayshare's own windows, so the person is told
   * how to grant it instead.
   */
  screenAccess?: () => string;
  notify(content: NotificationContent): void;
  log(message: string): void;
  /** Waits for hidden windows to go (tests pass no wait). */
  settle?: (ms: number) => Promise<void>;
}

export interface Capture {
  /** Takes a capture into the share sheet; a second press while one is under way does nothing. */
  start(source?: CaptureSource): Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createCapture(deps: CaptureDeps): Capture {
  let busy = false;
  const settle = deps.settle ?? wait;

  const run = async (source: CaptureSource) => {
    const access = deps.screenAccess?.();
    if (access === 'denied' || access === 'restricted') {
      deps.notify({
        title: 'Trayshare cannot see the screen',
        body: SCREEN_RECORDING_HELP,
        important: true,
      });
      return;
    }
    const hidden = deps.windows.hideForCapture();
    if (hidden.hidden > 0) await settle(HIDE_SETTLE_MS);
    const result = await deps.service.takeCapture(deps.capturer, source);
    // Back as they were (a pinned drop window too), then the share sheet in front.
    hidden.restore();
    if (result.kind === 'captured') {
      deps.routing.requestShare([result.path]);
      return;
    }
    if (result.kind === 'failed') {
      deps.log(`Capture failed: ${result.message}`);
      deps.notify({ title: 'Could not take the screenshot', body: result.message });
    }
  };

  return {
    async start(source = 'area') {
      if (busy) return;
      busy = true;
      try {
        await run(source);
      } finally {
        busy = false;
      }
    },
  };
}
