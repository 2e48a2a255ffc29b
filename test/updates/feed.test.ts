// electron-updater against a generic feed on 127.0.0.1, through the app's update module
// (main/electron/updates.ts): what a person would see in Settings → About and the tray, what
// lands on disk, and what reaches the log, for each answer a feed can give.

import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUpdates, type Updates } from '../../main/electron/updates';
import { type Feed, sha512Base64, startFeed } from './feed-server';
import { createTestUpdater, type TestUpdater } from './test-updater';
import { lineLog, watchViews } from './watch';

const SELF: { updatesItself: true } = { updatesItself: true };
const QUIET_QUEUE = { settled: async () => undefined, running: () => 0 };

let feed: Feed;
let test: TestUpdater | undefined;
let updates: Updates | undefined;

beforeEach(async () => {
  feed = await startFeed();
});
afterEach(async () => {
  updates?.dispose();
  await test?.close();
  await feed.close();
  test = undefined;
  updates = undefined;
});

async function start(opts: { version?: string; feedUrl?: string; automatic?: boolean } = {}) {
  test = await createTestUpdater({
    feedUrl: opts.feedUrl ?? feed.url,
    version: opts.version ?? '1.1.0',
  });
  const views = watchViews();
  const log = lineLog();
  const made = test;
  updates = createUpdates({
    source: SELF,
    createUpdater: () => made.updater,
    automatic: opts.automatic ?? true,
    queue: QUIET_QUEUE,
    log,
    onChange: views.onChange,
    // The 6-hourly check is tested in the policy's test; here only the one at start runs.
    timers: { setInterval: () => 0, clearInterval: () => undefined },
  });
  updates.start();
  return { views, log };
}

const settledView = (v: { status: string }) => ['ready', 'up-to-date', 'failed'].includes(v.status);

describe('updates from a generic feed on 127.0.0.1', () => {
  it('downloads a new version in the background and offers "Restart to update to 1.2.0"', async () => {
    feed.set('offer', '1.2.0');
    const { views, log } = await start();
    const ready = await views.until(settledView);
    expect(ready).toMatchObject({
      status: 'ready',
      version: '1.2.0',
      restartLabel: 'Restart to update to 1.2.0',
      canCheck: true,
    });
    // The file on disk is the one the feed described.
    const files = await readdir(test!.pendingDir);
    expect(files).toContain(feed.fileName);
    const onDisk = await readFile(join(test!.pendingDir, feed.fileName));
    expect(sha512Base64(onDisk)).toBe(sha512Base64(feed.bytes));
    expect(views.views.map((v) => v.status)).toEqual(['checking', 'downloading', 'ready']);
    expect(log.lines.some((l) => l.includes('1.2.0 is downloaded and checked'))).toBe(true);
    // Nothing restarts by itself: the person chooses when.
    expect(test!.app.quits).toBe(0);
  });

  it('says it is up to date when the feed offers the running version, and downloads nothing', async () => {
    feed.set('offer', '1.1.0');
    const { views } = await start({ version: '1.1.0' });
    const done = await views.until(settledView);
    expect(done).toMatchObject({ status: 'up-to-date', message: 'Trayshare is up to date.' });
    expect(done.restartLabel).toBeUndefined();
    expect(feed.requests.filter((p) => p.endsWith('.AppImage'))).toEqual([]);
  });

  it('refuses a downgrade: a feed offering an older version is not downloaded', async () => {
    feed.set('offer', '1.0.3');
    const { views, log } = await start({ version: '1.1.0' });
    const done = await views.until(settledView);
    expect(done.status).toBe('up-to-date');
    expect(done.restartLabel).toBeUndefined();
    expect(feed.requests.filter((p) => p.endsWith('.AppImage'))).toEqual([]);
    expect(log.lines.join('\n')).toMatch(/downgrade is disallowed/);
  });

  it('refuses a file whose sha512 does not match the feed: nothing offered, one quiet line', async () => {
    feed.set('tampered', '1.2.0');
    const { views, log } = await start();
    const done = await views.until(settledView);
    expect(done).toMatchObject({
      status: 'failed',
      message: "Couldn't download the update (the download did not match its checksum)",
      canCheck: true,
    });
    expect(done.restartLabel).toBeUndefined();
    // It was fetched, checked and thrown away: nothing waits to be installed.
    expect(feed.requests).toContain(`/${feed.fileName}`);
    const pending = await readdir(test!.pendingDir).catch(() => []);
    expect(pending.filter((f) => f.endsWith('.AppImage'))).toEqual([]);
    const failures = log.lines.filter((l) => l.startsWith('warn Updates:'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(
      /^warn Updates: checksum: ERR_CHECKSUM_MISMATCH: sha512 checksum mismatch/,
    );
  });

  it('takes an HTML page for a feed quietly', async () => {
    feed.set('html', '1.2.0');
    const { views, log } = await start();
    const done = await views.until(settledView);
    expect(done).toMatchObject({
      status: 'failed',
      message: "Couldn't check for updates (the update server answered something unexpected)",
      canCheck: true,
    });
    expect(feed.requests).toEqual(['/latest-linux.yml']);
    const failures = log.lines.filter((l) => l.startsWith('warn Updates:'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^warn Updates: feed: ERR_UPDATER_/);
    // One line each, never a stack.
    expect(log.lines.every((l) => !l.includes('\n'))).toBe(true);
  });

  it('says "offline" when nothing answers (connection refused)', async () => {
    const closed = await unusedPort();
    const { views, log } = await start({ feedUrl: `http://127.0.0.1:${closed}/` });
    const done = await views.until(settledView);
    expect(done).toMatchObject({
      status: 'failed',
      message: "Couldn't check for updates (offline)",
      canCheck: true,
    });
    expect(log.lines.filter((l) => l.startsWith('warn Updates:'))).toEqual([
      expect.stringMatching(/^warn Updates: offline: ECONNREFUSED/),
    ]);
  }, 30_000);

  it('with automatic checks off, nothing reaches the feed until "Check now"', async () => {
    feed.set('offer', '1.2.0');
    const { views } = await start({ automatic: false });
    expect(updates!.view()).toMatchObject({
      status: 'idle',
      automatic: false,
      canCheck: true,
      message: 'Automatic update checks are off.',
    });
    // The start is over (start() is synchronous): no request was made, and none is under way.
    expect(feed.requests).toEqual([]);
    await updates!.checkUpdatesNow();
    expect((await views.until(settledView)).status).toBe('ready');
    expect(feed.requests[0]).toBe('/latest-linux.yml');
  });
});

describe('builds that update some other way', () => {
  it('the deb never makes an updater, and nothing reaches the feed, even on "Check now"', async () => {
    feed.set('offer', '1.2.0');
    let made = 0;
    const views = watchViews();
    const debUpdates = createUpdates({
      source: {
        updatesItself: false,
        reason: 'Installed from the deb package: update it with apt or your package manager.',
      },
      createUpdater: () => {
        made++;
        throw new Error('never');
      },
      automatic: true,
      queue: QUIET_QUEUE,
      log: lineLog(),
      onChange: views.onChange,
    });
    debUpdates.start();
    expect(await debUpdates.checkUpdatesNow()).toEqual({
      status: 'unavailable',
      automatic: true,
      canCheck: false,
      message: 'Installed from the deb package: update it with apt or your package manager.',
    });
    expect(await debUpdates.restartToUpdate()).toMatchObject({ status: 'unavailable' });
    debUpdates.dispose();
    expect(made).toBe(0);
    expect(feed.requests).toEqual([]);
  });
});

/** A port on 127.0.0.1 that nothing listens on. */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
