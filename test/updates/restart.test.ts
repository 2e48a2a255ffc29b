// "Restart to update" in the running app (the real shell modules and core app service, uploading
// over HTTP to the reference service on 127.0.0.1, with electron-updater's AppImageUpdater
// downloading from a local feed): it never cuts off an upload, says what it waits for, and can
// be cancelled. Only quitAndInstall is replaced, by a recorder: it would end the test process.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueueItem } from '../../main/core/model';
import { type ShellHarness, startShellHarness } from '../shell/shell-harness';
import { type Feed, startFeed } from './feed-server';
import { createTestUpdater, type TestUpdater } from './test-updater';

let h: ShellHarness | undefined;
let feed: Feed | undefined;
let test: TestUpdater | undefined;

afterEach(async () => {
  await h?.close();
  await test?.close();
  await feed?.close();
  h = undefined;
  test = undefined;
  feed = undefined;
});

/** The app, started with an update to 1.2.0 on the feed; resolves once the tray offers it. */
async function appWithDownloadedUpdate() {
  feed = await startFeed();
  feed.set('offer', '1.2.0');
  test = await createTestUpdater({ feedUrl: feed.url, version: '1.1.0' });
  const installs: { queue: QueueItem[]; uploads: number }[] = [];
  const updater = test.updater;
  updater.quitAndInstall = () => {
    // What the queue and the service held at the moment the app would have quit.
    void h!.service.listQueue().then((queue) => {
      installs.push({ queue, uploads: h!.reference.uploads().length });
    });
  };
  h = await startShellHarness({
    updates: {
      source: { updatesItself: true },
      createUpdater: () => updater,
      timers: { setInterval: () => 0, clearInterval: () => undefined },
    },
  });
  await vi.waitFor(
    () => expect(h!.tray.item('update-restart').label).toBe('Restart to update to 1.2.0'),
    {
      timeout: 20_000,
    },
  );
  return { h, installs };
}

/** Shares one file and resolves once it is being sent (the service holds its answer back). */
async function uploadInFlight(h: ShellHarness): Promise<QueueItem> {
  // The service records the file at once and answers 3 s later: the upload is running.
  h.reference.injectFault({ fault: { kind: 'slow', delayMs: 3000 } });
  const [path] = await h.files('big-deck.pdf');
  await h.shell.shareWithPreset(h.demo!.randomPresetId, [path!]);
  let sending: QueueItem | undefined;
  await vi.waitFor(
    async () => {
      sending = (await h.service.listQueue()).find((i) => i.state === 'sending');
      expect(sending).toBeDefined();
    },
    { timeout: 10_000 },
  );
  return sending!;
}

describe('Restart to update', () => {
  it('waits for the running upload to finish, says so, then installs', async () => {
    const { h, installs } = await appWithDownloadedUpdate();
    const item = await uploadInFlight(h);

    h.tray.click('update-restart');
    await vi.waitFor(() =>
      expect(h.tray.item('update-waiting')).toMatchObject({
        label: 'Restarting when the upload finishes…',
        enabled: false,
      }),
    );
    expect(installs).toEqual([]);

    await vi.waitFor(() => expect(installs).toHaveLength(1), { timeout: 20_000 });
    // The upload was not interrupted: it finished, delivered once, before the restart.
    const atInstall = installs[0]!;
    expect(atInstall.queue.find((i) => i.id === item.id)?.state).toBe('delivered');
    expect(atInstall.uploads).toBe(1);
    expect(h.reference.uploads().map((u) => u.name)).toEqual(['big-deck.pdf']);
  }, 60_000);

  it('from Settings → About: the window is told, and restarts at once when nothing is uploading', async () => {
    const { h, installs } = await appWithDownloadedUpdate();
    h.tray.click('open');
    const main = h.windows.open()[0]!;
    expect(await h.call(main, 'getUpdates')).toMatchObject({
      status: 'ready',
      version: '1.2.0',
      restartLabel: 'Restart to update to 1.2.0',
    });
    // Arguments are checked as for every method: these take none.
    await expect(h.call(main, 'restartToUpdate', 'now')).rejects.toThrow(/Refused restartToUpdate/);
    await h.call(main, 'restartToUpdate');
    await vi.waitFor(() => expect(installs).toHaveLength(1));
    expect(installs[0]!.uploads).toBe(0);
    expect(main.webContents.eventsSent('updates-changed')).toContainEqual(
      expect.objectContaining({ status: 'restarting', message: 'Restarting…' }),
    );
  }, 60_000);

  it('can be cancelled while it waits: the upload finishes and the app keeps running', async () => {
    const { h, installs } = await appWithDownloadedUpdate();
    await uploadInFlight(h);
    h.tray.click('update-restart');
    await vi.waitFor(() => h.tray.item('update-cancel'));
    h.tray.click('update-cancel');
    expect(h.tray.item('update-restart').label).toBe('Restart to update to 1.2.0');

    await h.service.settled();
    await vi.waitFor(async () =>
      expect((await h.service.listQueue()).map((i) => i.state)).toEqual(['delivered']),
    );
    // Past the moment the restart would have come: the queue is at rest and nothing installed.
    await new Promise((resolve) => setImmediate(resolve));
    expect(installs).toEqual([]);
    expect(h.reference.uploads()).toHaveLength(1);
  }, 60_000);
});
