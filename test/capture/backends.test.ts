// The capture backends are one registry (CAPTURE_BACKENDS in main/core/capture/capturers.ts).
// These checks name what a change to it left out: a platform of the app's with no way to take a
// screenshot, and a backend docs/capture.md does not describe.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CAPTURE_BACKENDS,
  type CaptureBackend,
  capturerFor,
} from '../../main/core/capture/capturers';
import type { Capturer } from '../../main/core/capture/take-capture';

const overlay: Capturer = async () => ({ kind: 'cancelled' });
const backendOf = (platform: NodeJS.Platform): CaptureBackend['name'] | undefined =>
  CAPTURE_BACKENDS.find((b) => b.runsOn(platform))?.name;

describe('capture backends', () => {
  it("each of the app's platforms has one, and the overlay only where the app hands it in", () => {
    expect(backendOf('darwin')).toBe('screencapture');
    expect(backendOf('linux')).toBe('portal');
    expect(backendOf('win32')).toBe('overlay');
    expect(capturerFor('win32', { overlay: () => overlay })).toBe(overlay);
    // The CLI has no overlay window: `trayshare capture` says so on Windows.
    expect(capturerFor('win32')).toBeNull();
    for (const platform of ['darwin', 'linux', 'freebsd'] as const) {
      expect(capturerFor(platform), platform).toBeTypeOf('function');
    }
  });

  it('docs/capture.md names every backend', () => {
    const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'capture.md'), 'utf8');
    const missing = CAPTURE_BACKENDS.map((b) => b.name).filter(
      (name) => !page.includes(`\`${name}\``),
    );
    expect(missing, 'backends docs/capture.md does not name').toEqual([]);
  });
});
