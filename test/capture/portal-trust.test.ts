// What Trayshare takes from the screenshot portal, on a private D-Bus bus with the stand-in
// portal: only the answer of the bus name's owner (another client's forged Response is not an
// answer), and only a file that is a regular PNG of the person's own. Every other answer ends
// the capture at once with words, keeps nothing, and leaves the named file where it was.
import { execFileSync } from 'node:child_process';
import {
  chown,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import dbus from 'dbus-next';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { portalCapturer } from '../../main/core/capture/capturers';
import { takeCapture } from '../../main/core/capture/take-capture';
import { openPastedImages } from '../../main/core/pasted-images';
import { TINY_PNG } from '../harness/tiny-png';
import { startTestPortal, type TestPortal } from './test-portal';

const linux = process.platform === 'linux';

const PORTAL_AT_FAULT =
  "Try again; if it happens again, your desktop's screenshot portal is not saving screenshots as Trayshare expects: update xdg-desktop-portal and its backend.";
const TRY_AGAIN =
  "so nothing was captured. Try again; if it happens again, update your desktop's screenshot portal (xdg-desktop-portal and its backend).";

describe.skipIf(!linux)('what Trayshare takes from the screenshot portal (Linux)', () => {
  let portal: TestPortal;
  let dir: string;
  /** Files planted in the shared temp folder, as a forger or a broken portal would name them. */
  let planted: string;
  beforeAll(async () => {
    portal = await startTestPortal();
  });
  afterAll(async () => {
    await portal?.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'trayshare-capture-'));
    planted = await mkdtemp(join(tmpdir(), 'trayshare-planted-'));
    return async () => {
      await rm(dir, { recursive: true, force: true });
      await rm(planted, { recursive: true, force: true });
    };
  });

  const capture = () => {
    const images = openPastedImages(join(dir, 'pasted'));
    return takeCapture({
      capturer: portalCapturer(portal.address),
      source: 'area',
      dir: join(dir, 'pasted'),
      keep: images.keep,
    });
  };

  /** A PNG unlike the portal's, so the test can tell whose image was kept. */
  const OTHER_PNG = Buffer.concat([TINY_PNG.subarray(0, 8), Buffer.from('forged image body')]);

  it('ignores a Response another client sends on the request, takes the portal’s, and leaves the forged file alone', async () => {
    const forged = join(planted, 'forged.png');
    await writeFile(forged, OTHER_PNG);
    portal.answer({
      kind: 'file',
      png: TINY_PNG,
      forgedFirst: { uri: pathToFileURL(forged).href },
    });
    const sentBefore = portal.forgedSent;
    const result = await capture();
    expect(portal.forgedSent).toBe(sentBefore + 1);
    expect(result.kind).toBe('captured');
    if (result.kind !== 'captured') return;
    expect(await readFile(result.path)).toEqual(TINY_PNG);
    // Under the shared temp folder, yet not deleted: it was never the portal's.
    expect(await readFile(forged)).toEqual(OTHER_PNG);
  });

  const answers: {
    what: string;
    answer: (planted: string) => Promise<Parameters<TestPortal['answer']>[0]>;
    message: (planted: string) => string;
  }[] = [
    {
      what: 'a URI that is not file://',
      answer: async () => ({ kind: 'uri', uri: 'https://example.com/shot.png' }),
      message: () =>
        `The screenshot portal gave "https://example.com/shot.png", which is not a file on this computer, ${TRY_AGAIN}`,
    },
    {
      what: 'a file:// URI on another host',
      answer: async () => ({ kind: 'uri', uri: 'file://otherhost/tmp/shot.png' }),
      message: () =>
        `The screenshot portal gave "file://otherhost/tmp/shot.png", which is not a file on this computer, ${TRY_AGAIN}`,
    },
    {
      what: 'a URI that is not a string',
      answer: async () => ({
        kind: 'raw',
        signature: 'ua{sv}',
        body: [0, { uri: new dbus.Variant('u', 5) }],
      }),
      message: () => `The screenshot portal gave no file for the capture, ${TRY_AGAIN}`,
    },
    {
      what: 'a response code that is not a number',
      answer: async (at) => {
        await writeFile(join(at, 'shot.png'), TINY_PNG);
        return {
          kind: 'raw',
          signature: 'sa{sv}',
          body: ['0', { uri: new dbus.Variant('s', pathToFileURL(join(at, 'shot.png')).href) }],
        };
      },
      message: () =>
        `The screenshot portal answered in a form Trayshare does not know (sa{sv}), ${TRY_AGAIN}`,
    },
    {
      what: 'a file that is not a PNG',
      answer: async (at) => {
        await writeFile(join(at, 'notes.png'), 'ssh-rsa AAAA… a secret, not a picture');
        return { kind: 'uri', uri: pathToFileURL(join(at, 'notes.png')).href };
      },
      message: (at) =>
        `The screenshot portal's file ${join(at, 'notes.png')} is not a PNG image, so Trayshare did not take it. ${PORTAL_AT_FAULT}`,
    },
    {
      what: 'a symbolic link (to a PNG)',
      answer: async (at) => {
        await writeFile(join(at, 'target.png'), TINY_PNG);
        await symlink(join(at, 'target.png'), join(at, 'link.png'));
        return { kind: 'uri', uri: pathToFileURL(join(at, 'link.png')).href };
      },
      message: (at) =>
        `The screenshot portal's file ${join(at, 'link.png')} is a symbolic link, which Trayshare does not follow, so Trayshare did not take it. ${PORTAL_AT_FAULT}`,
    },
    {
      what: 'a missing file',
      answer: async (at) => ({ kind: 'uri', uri: pathToFileURL(join(at, 'gone.png')).href }),
      message: (at) =>
        `The screenshot portal's file ${join(at, 'gone.png')} does not exist, so Trayshare did not take it. Try the capture again.`,
    },
    {
      what: 'a folder',
      answer: async (at) => {
        await mkdir(join(at, 'folder.png'));
        return { kind: 'uri', uri: pathToFileURL(join(at, 'folder.png')).href };
      },
      message: (at) =>
        `The screenshot portal's file ${join(at, 'folder.png')} is a folder, not an image, so Trayshare did not take it. ${PORTAL_AT_FAULT}`,
    },
    {
      what: 'a named pipe',
      answer: async (at) => {
        execFileSync('mkfifo', [join(at, 'pipe.png')]);
        return { kind: 'uri', uri: pathToFileURL(join(at, 'pipe.png')).href };
      },
      message: (at) =>
        `The screenshot portal's file ${join(at, 'pipe.png')} is a named pipe, not an image, so Trayshare did not take it. ${PORTAL_AT_FAULT}`,
    },
    {
      what: 'a device',
      answer: async () => ({ kind: 'uri', uri: 'file:///dev/null' }),
      message: () =>
        `The screenshot portal's file /dev/null is a device, not an image, so Trayshare did not take it. ${PORTAL_AT_FAULT}`,
    },
  ];

  it.each(answers)(
    'ends the capture at once on $what, says why, and keeps nothing',
    async ({ answer, message }) => {
      portal.answer(await answer(planted));
      const before = await readdir(planted);
      expect(await capture()).toEqual({ kind: 'failed', message: message(planted) });
      expect(await readdir(join(dir, 'pasted'))).toEqual([]);
      // Nothing the answer named was removed, though it is all under the shared temp folder.
      expect(await readdir(planted)).toEqual(before);
    },
  );

  // A file of another user can be made only by root (chown); the check itself runs for everyone.
  it.skipIf(process.getuid?.() !== 0)(
    'ends the capture at once on a PNG that belongs to another user, and leaves it',
    async () => {
      const theirs = join(planted, 'theirs.png');
      await writeFile(theirs, TINY_PNG);
      await chown(theirs, 65534, 65534);
      portal.answer({ kind: 'uri', uri: pathToFileURL(theirs).href });
      expect(await capture()).toEqual({
        kind: 'failed',
        message: `The screenshot portal's file ${theirs} belongs to another user (uid 65534), so Trayshare did not take it. ${PORTAL_AT_FAULT}`,
      });
      expect(await readdir(join(dir, 'pasted'))).toEqual([]);
      expect((await lstat(theirs)).uid).toBe(65534);
    },
  );
});
