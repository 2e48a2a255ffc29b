// macOS: the system's own `screencapture`, writing straight into Trayshare's private folder.
// Its flags, from the tool's usage text (`screencapture -h`, macOS 10.14 and later):
//   -i  capture interactively, by selection or window (Space toggles, Esc cancels)
//   -W  start interaction in window selection mode;  -w  only allow window selection mode
//   -o  in window capture mode, do not capture the shadow of the window
//   -x  do not play sounds;  -m  only capture the main monitor (non-interactive)
// Esc leaves no file: that, with nothing on stderr, is a cancel.
import type { CaptureOutcome, CaptureSource } from './capture-outcome';

/** How to start: an area (Space switches to a window), a window, or the main screen at once. */
export type CaptureMode = CaptureSource;

export function screencaptureArgs(mode: CaptureMode, file: string): string[] {
  if (mode === 'screen') return ['-x', '-m', file];
  if (mode === 'window') return ['-i', '-w', '-o', '-x', file];
  return ['-i', '-o', '-x', file];
}

/** When macOS withholds Screen Recording (macOS 10.15 and later), where to grant it. */
export const SCREEN_RECORDING_HELP =
  "Trayshare needs Screen Recording permission to capture other apps' windows. Open System Settings → Privacy & Security → Screen & System Audio Recording, turn Trayshare on, then quit and reopen Trayshare.";

/** What screencapture's end means. */
export function screencaptureOutcome(end: {
  code: number | null;
  stderr: string;
  wroteFile: boolean;
  file: string;
}): CaptureOutcome {
  if (end.wroteFile) return { kind: 'file', path: end.file };
  const said = end.stderr.trim();
  if (said === '') return { kind: 'cancelled' };
  return { kind: 'failed', message: `screencapture could not take the screenshot: ${said}` };
}
