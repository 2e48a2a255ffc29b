// The macOS command line Trayshare runs, and what its end means (the tool itself runs in CI on
// macOS only).
import { describe, expect, it } from 'vitest';
import { screencaptureArgs, screencaptureOutcome } from './macos';

describe('screencapture', () => {
  it('is interactive for an area (Space switches to a window, Esc cancels), silent, without window shadows', () => {
    expect(screencaptureArgs('area', '/p/s.png')).toEqual(['-i', '-o', '-x', '/p/s.png']);
  });

  it('offers only windows for --window, and takes the main display at once for --screen', () => {
    expect(screencaptureArgs('window', '/p/s.png')).toEqual(['-i', '-w', '-o', '-x', '/p/s.png']);
    expect(screencaptureArgs('screen', '/p/s.png')).toEqual(['-x', '-m', '/p/s.png']);
  });

  it('reads a written file as the capture, no file and no words as a cancel, words as a failure', () => {
    const end = { code: 0, stderr: '', file: '/p/s.png' };
    expect(screencaptureOutcome({ ...end, wroteFile: true })).toEqual({
      kind: 'file',
      path: '/p/s.png',
    });
    expect(screencaptureOutcome({ ...end, code: 1, wroteFile: false })).toEqual({
      kind: 'cancelled',
    });
    expect(
      screencaptureOutcome({
        ...end,
        code: 1,
        stderr: 'could not create image\n',
        wroteFile: false,
      }),
    ).toEqual({
      kind: 'failed',
      message: 'screencapture could not take the screenshot: could not create image',
    });
  });
});
