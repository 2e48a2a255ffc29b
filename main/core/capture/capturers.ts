// The OS's own capture tool where it gives the image back: the portal on Linux, screencapture on
// macOS. Windows has none an NSIS-installed app can use; its overlay is main/electron's.
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { MAC_PROGRAMS, type ProgramPath } from '../system-programs';
import { screencaptureArgs, screencaptureOutcome } from './macos';
import type { CaptureOutcome } from './outcome';
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

/** This OS's own tool, or null where Trayshare brings its own (Windows). */
export function osCapturer(platform: NodeJS.Platform): Capturer | null {
  if (platform === 'darwin') return screencaptureCapturer();
  if (platform === 'win32') return null;
  return portalCapturer();
}
