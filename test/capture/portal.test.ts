// The Linux capture path against a stand-in portal on a private D-Bus bus: the real portal
// client (dbus-next), the real capture store. What a person would check: the image arrives as a
// private file named like a screenshot, a cancel leaves nothing, a failure says what to do.
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { portalCapturer } from '../../main/core/capture/capturers';
import { NO_PORTAL } from '../../main/core/capture/portal';
import { takeCapture } from '../../main/core/capture/take-capture';
import { openPastedImages } from '../../main/core/pasted-images';
import { TINY_PNG } from '../harness/tiny-png';
import { startTestPortal, type TestPortal } from './test-portal';

const linux = process.platform === 'linux';

describe.skipIf(!linux)(
  'capture through the xdg-desktop-portal Screenshot interface (Linux)',
  () => {
    let portal: TestPortal;
    let dir: string;
    beforeAll(async () => {
      portal = await startTestPortal();
    });
    afterAll(async () => {
      await portal?.close();
    });
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'trayshare-capture-'));
      return () => rm(dir, { recursive: true, force: true });
    });

    const capture = (source: 'area' | 'screen', address = portal.address) => {
      const images = openPastedImages(join(dir, 'pasted'));
      return takeCapture({
        capturer: portalCapturer(address),
        source,
        dir: join(dir, 'pasted'),
        keep: images.keep,
      });
    };

    it('keeps the image as a private file named like a screenshot, and takes the portal’s file out of the shared temp folder', async () => {
      portal.answer({ kind: 'file', png: TINY_PNG });
      const result = await capture('area');
      expect(result.kind).toBe('captured');
      if (result.kind !== 'captured') return;
      expect(basename(result.path)).toMatch(
        /^Screenshot \d{4}-\d\d-\d\d at \d\d\.\d\d\.\d\d\.png$/,
      );
      expect(await readFile(result.path)).toEqual(TINY_PNG);
      expect((await stat(result.path)).mode & 0o777).toBe(0o600);
      expect((await stat(join(dir, 'pasted'))).mode & 0o777).toBe(0o700);
      await expect(stat(portal.written.at(-1)!)).rejects.toThrow(/ENOENT/);
      // No scratch file is left beside it.
      expect(await readdir(join(dir, 'pasted'))).toEqual([basename(result.path)]);
      const call = portal.calls.at(-1)!;
      expect(call).toMatchObject({ interactive: true, modal: true });
      expect(String(call.handleToken)).toMatch(/^trayshare_[0-9a-f]{16}$/);
    });

    it('asks for the whole screen without the interactive UI for --screen', async () => {
      portal.answer({ kind: 'file', png: TINY_PNG });
      const result = await capture('screen');
      expect(result.kind).toBe('captured');
      expect(portal.calls.at(-1)).toMatchObject({ interactive: false });
    });

    it('starts on windows for --window where the portal offers that target (version 3), and asks nothing of older ones', async () => {
      const capture = (source: 'window' | 'area') => {
        const images = openPastedImages(join(dir, 'pasted'));
        return takeCapture({
          capturer: portalCapturer(portal.address),
          source,
          dir: join(dir, 'pasted'),
          keep: images.keep,
        });
      };
      portal.answer({ kind: 'file', png: TINY_PNG });
      portal.setVersion(3, 1 | 2 | 4);
      expect((await capture('window')).kind).toBe('captured');
      expect(portal.calls.at(-1)).toMatchObject({ interactive: true, target: 2 });
      await capture('area');
      expect(portal.calls.at(-1)).toMatchObject({ interactive: true, target: undefined });
      portal.setVersion(3, 1 | 4);
      await capture('window');
      expect(portal.calls.at(-1)).toMatchObject({ target: undefined });
      portal.setVersion(2);
      await capture('window');
      expect(portal.calls.at(-1)).toMatchObject({ interactive: true, target: undefined });
    });

    it('does nothing when the person cancels', async () => {
      portal.answer({ kind: 'cancelled' });
      expect(await capture('area')).toEqual({ kind: 'cancelled' });
      expect(await readdir(join(dir, 'pasted'))).toEqual([]);
    });

    it('says what the portal answered when it fails', async () => {
      portal.answer({
        kind: 'error',
        name: 'org.freedesktop.portal.Error.NotAllowed',
        text: 'Screenshots are not allowed',
      });
      expect(await capture('area')).toEqual({
        kind: 'failed',
        message: 'The screenshot portal refused the capture: Screenshots are not allowed',
      });
      expect(await readdir(join(dir, 'pasted'))).toEqual([]);
    });

    it('names what to install when no portal is on the bus', async () => {
      const empty = await startTestPortal();
      // A bus where the name is not owned: the portal's own connection is gone.
      const other = await startBusWithoutPortal(empty);
      const result = await capture('area', other);
      expect(result).toEqual({ kind: 'failed', message: NO_PORTAL });
      await empty.close();
    });
  },
);

/** The address of a bus nobody serves the portal on (the stand-in's bus, with it gone). */
async function startBusWithoutPortal(portal: TestPortal): Promise<string> {
  const { address } = portal;
  await portal.releaseName();
  return address;
}
