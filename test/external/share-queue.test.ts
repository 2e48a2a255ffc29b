// A share through the durable queue on Slack's external protocol: its files upload one by one
// and complete together, one message per group of at most 10 with the share's one comment. A
// file that fails or is cancelled before its group completes does not hold the others. The
// app's core (settings, queue, engine) against the reference service over real HTTP.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import type { QueueItem, Workspace } from '../../main/core/model';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import { openSettingsService } from '../../main/core/settings/settings-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import type { Transport } from '../../main/core/upload/transport';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { calls, makeFile, openApp, sharedCounts, type TestFile } from './helpers';

let dir: string;
let service: ReferenceService;
let log: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-share-queue-'));
  log = [];
  service = await startReferenceService({
    dataDir: join(dir, 'service'),
    log: (line) => log.push(line),
  });
});

afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

async function files(prefix: string, n: number): Promise<TestFile[]> {
  const made: TestFile[] = [];
  for (let i = 0; i < n; i += 1) {
    made.push(await makeFile(join(dir, prefix), `${prefix}-${i}.txt`, 2000 + i));
  }
  return made;
}

async function withApp(
  name: string,
  run: (app: AppService, ws: Workspace) => Promise<void>,
  transport?: Transport,
  watchSettings = false,
): Promise<void> {
  const app = await openApp({
    dataDir: join(dir, name),
    ...(transport ? { transport } : {}),
    watchSettings,
  });
  try {
    const ws = await app.addWorkspace({ name: 'Acme', baseUrl: service.url, protocol: 'external' });
    await run(app, ws);
  } finally {
    await app.close();
  }
}

async function waitFor(app: AppService, check: (items: QueueItem[]) => boolean): Promise<void> {
  for (;;) {
    if (check(await app.listQueue())) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The messages the service recorded for these files, oldest first. */
function messagesOf(uploads: TestFile[]) {
  const ids = new Set(
    service
      .uploads()
      .filter((u) => uploads.some((f) => f.sha256 === u.sha256))
      .map((u) => u.id),
  );
  return service.messages().filter((m) => m.files.some((f) => ids.has(f)));
}

describe('a share through the queue, external protocol', () => {
  it('shares 11 files as 2 messages (10 + 1), the comment once, on the first', async () => {
    const shared = await files('eleven', 11);
    const completionsBefore = calls(log, 'files.completeUploadExternal');
    await withApp('eleven', async (app, ws) => {
      const { items } = await app.share({
        target: { workspaceId: ws.id, channels: ['C0DESIGN'] },
        comment: 'Eleven files',
        paths: shared.map((f) => f.path),
      });
      expect(items).toHaveLength(11);
      await app.settled();
      const queue = await app.listQueue();
      expect(queue.map((i) => i.state)).toEqual(Array(11).fill('delivered'));
      expect(new Set(queue.map((i) => i.file?.id)).size).toBe(11);
      // Each history row links to its own file (from files.info: the completion's answer, as
      // Slack documents it, has no permalink).
      const history = await app.listHistory({});
      expect(history.filter((h) => h.outcome === 'delivered' && h.permalink)).toHaveLength(11);
    });
    const messages = messagesOf(shared);
    expect(messages.map((m) => [m.files.length, m.initial_comment, m.channels])).toEqual([
      [10, 'Eleven files', ['C0DESIGN']],
      [1, null, ['C0DESIGN']],
    ]);
    expect(calls(log, 'files.completeUploadExternal') - completionsBefore).toBe(2);
    expect(sharedCounts(service.uploads(), shared)).toEqual(Array(11).fill(1));
  });

  it('a file that changed after it was queued fails alone; the others are one message', async () => {
    const shared = await files('changed', 3);
    // Every step 1 waits until the file is changed, so the change lands between queueing and sending.
    let changed: Promise<void> | undefined;
    const inner = createNodeTransport();
    const transport: Transport = {
      async request(req) {
        if (req.url.endsWith('/api/files.getUploadURLExternal')) {
          changed ??= writeFile(shared[1]!.path, 'other bytes, other size\n');
          await changed;
        }
        return inner.request(req);
      },
    };
    await withApp(
      'changed',
      async (app, ws) => {
        await app.share({
          target: { workspaceId: ws.id, channels: ['C0DESIGN'] },
          comment: 'Three files',
          paths: shared.map((f) => f.path),
        });
        await app.settled();
        const queue = await app.listQueue();
        expect(queue.map((i) => [i.name, i.state, i.error?.code])).toEqual([
          ['changed-0.txt', 'delivered', undefined],
          ['changed-1.txt', 'failed', 'file_changed'],
          ['changed-2.txt', 'delivered', undefined],
        ]);
      },
      transport,
    );
    const messages = messagesOf(shared);
    expect(messages.map((m) => [m.files.length, m.initial_comment])).toEqual([[2, 'Three files']]);
    expect(sharedCounts(service.uploads(), shared)).toEqual([1, 0, 1]);
  });

  it('a file cancelled while it waits for its group leaves the group; the rest are one message', async () => {
    const shared = await files('cancel', 3);
    // The first byte upload is held until the test lets it go, so the other two wait for it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let first = true;
    const inner = createNodeTransport();
    const transport: Transport = {
      async request(req) {
        if (!req.url.includes('/api/') && first) {
          first = false;
          await held;
        }
        return inner.request(req);
      },
    };
    await withApp(
      'cancel',
      async (app, ws) => {
        const { items } = await app.share({
          target: { workspaceId: ws.id, channels: ['C0DESIGN'] },
          comment: 'Two of three',
          paths: shared.map((f) => f.path),
        });
        const uploaded = (i: QueueItem) => i.state === 'sending' && i.sent === i.size;
        await waitFor(app, (queue) => queue.filter(uploaded).length === 2);
        const waiting = (await app.listQueue()).find(uploaded)!;
        await app.cancelItem(waiting.id);
        release();
        await app.settled();
        const queue = await app.listQueue();
        expect(queue.filter((i) => i.state === 'cancelled').map((i) => i.id)).toEqual([waiting.id]);
        expect(queue.filter((i) => i.state === 'delivered')).toHaveLength(2);
        expect(items).toHaveLength(3);
      },
      transport,
    );
    const messages = messagesOf(shared);
    expect(messages.map((m) => [m.files.length, m.initial_comment])).toEqual([[2, 'Two of three']]);
    expect(sharedCounts(service.uploads(), shared).reduce((a, b) => a + b)).toBe(2);
  });

  /** Holds the first byte upload until released, so the share's other files wait for it. */
  function holdFirstUpload(): { transport: Transport; release: () => void } {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let first = true;
    const inner = createNodeTransport();
    const transport: Transport = {
      async request(req) {
        if (!req.url.includes('/api/') && first) {
          first = false;
          await held;
        }
        return inner.request(req);
      },
    };
    return { transport, release };
  }

  async function removedBeforeCompletion(
    name: string,
    remove: (app: AppService, ws: Workspace) => Promise<void>,
    watchSettings = false,
  ): Promise<void> {
    const shared = await files(name, 3);
    const { transport, release } = holdFirstUpload();
    await withApp(
      name,
      async (app, ws) => {
        await app.share({
          target: { workspaceId: ws.id, channels: ['C0DESIGN'] },
          comment: 'Never posted',
          paths: shared.map((f) => f.path),
        });
        const uploaded = (i: QueueItem) => i.state === 'sending' && i.sent === i.size;
        await waitFor(app, (queue) => queue.filter(uploaded).length === 2);
        await remove(app, ws);
        release();
        await app.settled();
        const queue = await app.listQueue();
        expect(queue.map((i) => [i.state, i.error?.code, i.error?.message])).toEqual(
          Array(3).fill([
            'failed',
            'workspace_removed',
            'The workspace of this upload was removed.',
          ]),
        );
      },
      transport,
      watchSettings,
    );
    expect(messagesOf(shared)).toEqual([]);
  }

  it('a workspace removed while its files wait for their group: they fail as removed, nothing is posted', async () => {
    await removedBeforeCompletion('removed', (app, ws) => app.removeWorkspace(ws.id));
  });

  it('a workspace removed by another process (the CLI) while its files wait for their group: the same', async () => {
    await removedBeforeCompletion(
      'removed-outside',
      async (app, ws) => {
        const seen = new Promise<void>((resolve) => {
          const off = app.on('settings-changed', (snapshot) => {
            if (snapshot.workspaces.length > 0) return;
            off();
            resolve();
          });
        });
        const cli = openSettingsService({
          dir: join(dir, 'removed-outside'),
          secrets: createKeychainStore({ service: 'Trayshare-test-external-removed-outside' }),
          transport: createNodeTransport(),
        });
        await cli.removeWorkspace(ws.id);
        cli.close();
        // The app saw the file change (its watcher), as it would the CLI's.
        await seen;
      },
      true,
    );
  });

  it('a workspace removed while its files wait for a new token: they fail as removed, not wait for ever', async () => {
    const shared = await files('held', 2);
    service.injectFault({
      method: 'files.getUploadURLExternal',
      fault: { kind: 'error', error: 'token_revoked' },
      times: 10,
    });
    try {
      await withApp('held', async (app, ws) => {
        await app.share({
          target: { workspaceId: ws.id, channels: ['C0DESIGN'] },
          paths: shared.map((f) => f.path),
        });
        await app.settled();
        // Held for the person: a refused token pauses the workspace until a new one is given.
        expect((await app.listQueue()).map((i) => [i.state, i.error?.code])).toEqual(
          Array(2).fill(['waiting', 'token_revoked']),
        );
        await app.removeWorkspace(ws.id);
        await waitFor(app, (queue) => queue.every((i) => i.state === 'failed'));
        expect((await app.listQueue()).map((i) => [i.state, i.error?.code])).toEqual(
          Array(2).fill(['failed', 'workspace_removed']),
        );
      });
    } finally {
      service.clearFaults();
    }
    expect(messagesOf(shared)).toEqual([]);
  });

  it('a completion whose answer is lost: files.info shows the message, so the whole group is delivered with its links, posted once', async () => {
    const shared = await files('lost', 3);
    service.injectFault({
      method: 'files.completeUploadExternal',
      fault: { kind: 'reset-after-body' },
    });
    await withApp('lost', async (app, ws) => {
      await app.share({
        target: { workspaceId: ws.id, channels: ['C0DESIGN'] },
        comment: 'Lost answer',
        paths: shared.map((f) => f.path),
      });
      await app.settled();
      const queue = await app.listQueue();
      // files.info lists each file's share: the lost request completed them; not sent again.
      expect(queue.map((i) => [i.state, i.error?.code])).toEqual(
        Array(3).fill(['delivered', undefined]),
      );
      expect(queue.every((i) => i.file?.permalink?.includes(`/${i.file.id}/`))).toBe(true);
    });
    expect(messagesOf(shared).map((m) => [m.files.length, m.initial_comment])).toEqual([
      [3, 'Lost answer'],
    ]);
    expect(sharedCounts(service.uploads(), shared)).toEqual([1, 1, 1]);
  });
});
