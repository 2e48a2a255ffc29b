// Shares by name through the real app service (settings, durable queue, engine) against the
// reference service over real HTTP: non-members refused before sending, a partly refused share
// names the channels and goes to the others once, and a retry keeps one history row.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import { createAppService } from '../../main/core/app-service';
import type { QueueItem } from '../../main/core/model';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { openApp, TOKEN } from '../external/helpers';
import { createMemorySecretStore } from '../harness/memory-secrets';
import { type ReferenceService, startReferenceService } from '../reference-service/server';

let dir: string;
let service: ReferenceService;
let app: AppService;
let log: string[];
let workspaceId: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-share-names-'));
  log = [];
  service = await startReferenceService({ dataDir: join(dir, 'service'), log: (l) => log.push(l) });
  app = await openApp({ dataDir: join(dir, 'data') });
  workspaceId = (await app.addWorkspace({ name: 'Acme', baseUrl: service.url })).id;
  file = join(dir, 'mock-up.png');
  await writeFile(file, 'png bytes');
  // The picker would have loaded the list; here the test waits for it.
  await app.listConversations(workspaceId, { wait: true });
});

afterEach(async () => {
  await app.close();
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

const uploadsCalls = () => log.filter((l) => l === 'POST /api/files.upload').length;

async function finished(id: string): Promise<QueueItem> {
  await app.settled();
  const item = (await app.listQueue()).find((i) => i.id === id);
  if (!item) throw new Error('item gone');
  return item;
}

describe('the channel list of a new workspace', () => {
  it('is fetched once a token is saved, though it was asked for before', async () => {
    // The app without a token override: the token is the one saved, as in the tray app.
    const fresh = await createAppService({
      dataDir: join(dir, 'fresh'),
      secrets: createMemorySecretStore(),
      transport: createNodeTransport(),
    });
    try {
      // As the share sheet does: it opens while adding the workspace is still checking the token.
      const added = await fresh.addWorkspace({ name: 'Fresh', baseUrl: service.url });
      const early = await fresh.listConversations(added.id, { wait: true });
      expect(early.problem?.message).toBe('No token saved for this workspace.');
      await fresh.setToken(added.id, TOKEN);
      const later = await fresh.listConversations(added.id, { wait: true });
      expect(later.problem).toBeUndefined();
      expect(later.conversations?.map((c) => c.name)).toContain('general');
    } finally {
      await fresh.close();
    }
  });
});

describe('sharing by name', () => {
  it('resolves #names and refuses a channel the app is not in before sending', async () => {
    await expect(
      app.share({ target: { workspaceId, channels: ['#design-ops', 'C0GENERAL'] }, paths: [file] }),
    ).rejects.toThrow(/not a member of #design-ops: invite the app first/);
    expect(uploadsCalls()).toBe(0);

    const shared = await app.share({
      target: { workspaceId, channels: ['#design-review'] },
      paths: [file],
    });
    expect((await finished(shared.items[0]!.id)).state).toBe('delivered');
    expect(service.uploads().map((u) => u.channels)).toEqual([['C0DESIGN']]);
    // History is found by the channel's name.
    const found = await app.listHistory({ search: '#design-review' });
    expect(found.map((h) => h.channels)).toEqual([['C0DESIGN']]);
  });

  it('a share refused by one channel names it, and "Send to the others" delivers once', async () => {
    // C0SECRET is private and the app is not in it: not listed, so only the service can refuse it.
    const shared = await app.share({
      target: { workspaceId, channels: ['C0GENERAL', 'C0SECRET', '#random'] },
      paths: [file],
    });
    const failed = await finished(shared.items[0]!.id);
    expect(failed.state).toBe('failed');
    expect(failed.error?.refusedChannels).toEqual(['C0SECRET']);
    expect(failed.error?.message).toMatch(
      /C0SECRET refused it .*Send to the others \(#general, #random\)/,
    );
    expect(service.uploads()).toEqual([]);
    expect(await app.listHistory({})).toHaveLength(1);

    await app.sendToOthers(failed.id);
    const delivered = await finished(failed.id);
    expect(delivered.state).toBe('delivered');
    expect(service.uploads().map((u) => u.channels)).toEqual([['C0GENERAL', 'C0RANDOM']]);
    // The same item, retried: still one history row, now delivered.
    const history = await app.listHistory({});
    expect(history.map((h) => h.outcome)).toEqual(['delivered']);

    // Nothing left to send to the others once delivered.
    await expect(app.sendToOthers(failed.id)).rejects.toThrow(/no channels left/);
    expect(service.uploads()).toHaveLength(1);
  });

  it('on the external protocol, "Send to the others" sends the whole refused share as one message', async () => {
    await app.updateWorkspace(workspaceId, { protocol: 'external' });
    const paths = [];
    for (const name of ['a.png', 'b.png', 'c.png']) {
      const path = join(dir, name);
      await writeFile(path, `bytes of ${name}`);
      paths.push(path);
    }
    const shared = await app.share({
      target: { workspaceId, channels: ['C0GENERAL', 'C0SECRET', '#random'] },
      comment: 'all three',
      paths,
    });
    await app.settled();
    const failed = (await app.listQueue()).filter((i) => i.shareId === shared.shareId);
    expect(failed.map((i) => [i.state, i.error?.refusedChannels])).toEqual([
      ['failed', ['C0SECRET']],
      ['failed', ['C0SECRET']],
      ['failed', ['C0SECRET']],
    ]);
    expect(service.messages()).toEqual([]);

    // One click on one file: the share goes to the others, together.
    await app.sendToOthers(failed[0]!.id);
    await app.settled();
    const after = (await app.listQueue()).filter((i) => i.shareId === shared.shareId);
    expect(after.map((i) => i.state)).toEqual(['delivered', 'delivered', 'delivered']);
    const messages = service.messages();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      channels: ['C0GENERAL', 'C0RANDOM'],
      initial_comment: 'all three',
    });
    expect(messages[0]!.files).toHaveLength(3);
  });

  it('"Change destination" moves the whole refused share, as one message on the external protocol', async () => {
    await app.updateWorkspace(workspaceId, { protocol: 'external' });
    const paths = [];
    for (const name of ['a.png', 'b.png']) {
      const path = join(dir, name);
      await writeFile(path, `bytes of ${name}`);
      paths.push(path);
    }
    const shared = await app.share({
      target: { workspaceId, channels: ['C0GENERAL', 'C0SECRET'] },
      comment: 'both',
      paths,
    });
    await app.settled();
    const failed = (await app.listQueue()).filter((i) => i.shareId === shared.shareId);
    expect(failed.map((i) => i.state)).toEqual(['failed', 'failed']);

    await app.changeDestination(failed[1]!.id, ['#general', '#design']);
    await app.settled();
    const after = (await app.listQueue()).filter((i) => i.shareId === shared.shareId);
    expect(after.map((i) => i.state)).toEqual(['delivered', 'delivered']);
    const messages = service.messages();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      channels: ['C0GENERAL', 'C0DESIGNX'],
      initial_comment: 'both',
    });
    expect(messages[0]!.files).toHaveLength(2);
  });

  it('"Change destination" sends the failed item elsewhere, by name', async () => {
    const shared = await app.share({
      target: { workspaceId, channels: ['C0SECRET'] },
      paths: [file],
    });
    const failed = await finished(shared.items[0]!.id);
    expect(failed.error?.code).toBe('not_in_channel');
    await app.changeDestination(failed.id, ['#design']);
    expect((await finished(failed.id)).state).toBe('delivered');
    expect(service.uploads().map((u) => u.channels)).toEqual([['C0DESIGNX']]);
    expect(await app.listHistory({})).toHaveLength(1);
  });
});
