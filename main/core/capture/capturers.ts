// Every way Trayshare takes a screenshot, one entry each in CAPTURE_BACKENDS, all behind the
// same Capturer interface (take-capture.ts): the OS's own tool where it gives the image back
// (the portal on Linux, screencapture on macOS) and, on Windows, which has none an
// NSIS-installed app can use, Trayshare's own overlay window (main/electron/capture-overlay.ts,
// which needs Electron, so the app hands it in as `host.overlay`). The app and the CLI both ask
// capturerFor; a new backend is a new entry here.
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { MAC_PROGRAMS, type ProgramPath } from '../system-programs';
import type { CaptureOutcome } from './capture-outcome';
import { screencaptureArgs, screencaptureOutcome } from './macos';
import { takePortalFile } from './portal-file';
import type { Capturer } from './take-capture';

async function hasImage(path: string): Promise<boolean> {
  try {
    return (await stat(path)).size > 0;
  } catch {
    return false;
  }
}

/** screencapture into the scratch file; the person's Esc leaves none. */
function screencaptureCapturer(program: ProgramPath = MAC_PROGRAMS.screencapture): Capturer {
  return (source, scratch) =>
    new Promise<CaptureOutcome>((resolve) => {
      const child = spawn(program, screencaptureArgs(source, scratch), {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      child.on('error', (error) =>
        resolve({ kind: 'failed', message: `screencapture could not start: ${error.message}` }),
      );
      child.on('close', (code) => {
        void hasImage(scratch).then((wroteFile) =>
          resolve(screencaptureOutcome({ code, stderr, wroteFile, file: scratch })),
        );
      });
    });
}

/**
 * The portal: its interactive UI for an area or a window, the whole screen at once otherwise;
 * its file only when portal-file.ts takes it.
 * The D-Bus library loads on the first capture, not with every start of the app or the CLI.
 */
export function portalCapturer(busAddress?: string): Capturer {
  return async (source, scratch) => {
    const { portalScreenshot } = await import('./portal');
    const answer = await portalScreenshot({
      interactive: source !== 'screen',
      window: source === 'window',
      ...(busAddress ? { busAddress } : {}),
    });
    // The portal's own file is checked and copied to the scratch file here, so what the
    // capture keeps (or shows, or sends) is only ever that copy.
    return answer.kind === 'file' ? takePortalFile(answer.path, scratch) : answer;
  };
}

/** What a backend may need from whoever asks for one. */
export interface CaptureHost {
  /** The app's overlay window (Electron); the CLI has none. */
  overlay?: () => Capturer;
}

export interface CaptureBackend {
  /** For logs and docs. */
  name: 'screencapture' | 'portal' | 'overlay';
  runsOn(platform: NodeJS.Platform): boolean;
  /** The capturer, or null where this host cannot provide what it needs. */
  create(host: CaptureHost): Capturer | null;
}

/** In order: the first that runs on the platform is the one used. */
export const CAPTURE_BACKENDS: readonly CaptureBackend[] = [
  {
    name: 'screencapture',
    runsOn: (platform) => platform === 'darwin',
    create: () => screencaptureCapturer(),
  },
  {
    name: 'overlay',
    runsOn: (platform) => platform === 'win32',
    create: (host) => host.overlay?.() ?? null,
  },
  // Linux and the other free desktops: xdg-desktop-portal.
  { name: 'portal', runsOn: () => true, create: () => portalCapturer() },
];

/** The capturer for this platform, or null where it needs what this host lacks (the CLI on Windows). */
export function capturerFor(platform: NodeJS.Platform, host: CaptureHost = {}): Capturer | null {
  const backend = CAPTURE_BACKENDS.find((b) => b.runsOn(platform));
  return backend ? backend.create(host) : null;
}
