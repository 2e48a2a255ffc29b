// The tray as the running app drives it: its menu's actions, its model from what the app knows,
// drops on the icon (macOS), and the taskbar progress that follows the same status.

import type { AppService, PreferencesPatch } from '../../preload/contract';
import { errorMessage } from '../portable/error-message';
import type { DesktopState } from './desktop-state';
import type { ShareRouting } from './share-routing';
import { createTrayController, type TrayDeps } from './tray';
import type { TrayMenuActions, TrayMenuModel } from './tray-menu';
import { trayStatus } from './tray-status';
import type { Updates } from './updates';
import type { Windows } from './windows';

interface TrayWiring {
  /** Shows the current state in the tray and the taskbar progress. */
  refresh(): void;
  destroy(): void;
}

interface TrayWiringDeps<Image, Menu> {
  platform: NodeJS.Platform;
  state: DesktopState;
  tray: Pick<TrayDeps<Image, Menu>, 'createTray' | 'buildMenu' | 'loadImage' | 'iconDir'>;
  service: Pick<AppService, 'setPaused'>;
  windows: Windows;
  routing: ShareRouting;
  describeChannels(ids: readonly string[]): string;
  pickFiles(): Promise<string[]>;
  clipboardFiles(): Promise<string[] | null>;
  setPreferences(patch: PreferencesPatch): Promise<unknown>;
  writeClipboard(text: string): void;
  /** Capture… (absent: this build has no capture tool). */
  capture?(): void;
  updates: Pick<Updates, 'view' | 'restartToUpdate' | 'cancelRestart'>;
  quit(): void;
  log(message: string): void;
}

function trayActions<Image, Menu>(deps: TrayWiringDeps<Image, Menu>): TrayMenuActions {
  const { windows, routing } = deps;
  return {
    shareFiles: (presetId) => {
      void deps.pickFiles().then((paths) => routing.shareTo(presetId, paths));
    },
    shareClipboard: (presetId) => {
      void deps.clipboardFiles().then((paths) => {
        if (paths) routing.shareTo(presetId, paths);
      });
    },
    openWindow: (view) => windows.showMain(view),
    showDropWindow: () => windows.showDropWindow(),
    setDropWindowPinned: (pinned) => {
      void deps
        .setPreferences({ dropWindowPinned: pinned })
        .catch((e: unknown) =>
          deps.log(`Could not change the drop window setting: ${errorMessage(e)}`),
        );
    },
    copyLink: deps.writeClipboard,
    capture: () => deps.capture?.(),
    setPaused: (paused) => {
      deps.service
        .setPaused(paused)
        .catch((e: unknown) => deps.log(`Could not pause: ${errorMessage(e)}`));
    },
    restartToUpdate: () => void deps.updates.restartToUpdate(),
    cancelRestart: () => void deps.updates.cancelRestart(),
    quit: () => deps.quit(),
  };
}

function updateModel(view: ReturnType<Updates['view']>): TrayMenuModel['update'] {
  if (!view.restartLabel) return undefined;
  return view.status === 'restarting'
    ? { restartLabel: view.restartLabel, waiting: view.message }
    : { restartLabel: view.restartLabel };
}

export function createTrayWiring<Image, Menu>(deps: TrayWiringDeps<Image, Menu>): TrayWiring {
  const { platform, state, windows, routing } = deps;
  const model = (): TrayMenuModel => ({
    update: updateModel(deps.updates.view()),
    status: trayStatus(state.items, {
      paused: state.snapshot.paused,
      needsToken: state.needsToken.size,
      needsSignIn: state.snapshot.workspaces.filter(
        (w) => w.auth === 'slack' && state.needsToken.has(w.id),
      ).length,
    }),
    presets: state.snapshot.presets,
    workspaces: state.snapshot.workspaces,
    defaultPresetId: state.snapshot.defaultPresetId,
    paused: state.snapshot.paused,
    recent: state.recent,
    describeChannels: deps.describeChannels,
    hasDropWindow: platform !== 'darwin',
    canCapture: deps.capture !== undefined,
    dropWindowPinned: state.snapshot.preferences.dropWindowPinned,
  });

  const tray = createTrayController(
    {
      ...deps.tray,
      platform,
      actions: trayActions(deps),
      onDropFiles: (paths) => {
        const preset = state.snapshot.defaultPresetId;
        if (state.snapshot.preferences.trayDropAction === 'default-preset' && preset) {
          void routing.shareWithPreset(preset, paths);
        } else {
          routing.requestShare(paths);
        }
      },
      onClick: () => windows.toggleDropWindow(),
    },
    model(),
  );

  return {
    refresh() {
      const m = model();
      tray.update(m);
      windows.setProgress(
        m.status.percent === null || state.snapshot.paused ? null : m.status.percent / 100,
        m.status.state === 'attention',
      );
    },
    destroy: () => tray.destroy(),
  };
}
