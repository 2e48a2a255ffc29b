// Progress as the app and the CLI see it: the app service's queue-changed events while a small
// file goes out over a slow link move several times, not once at the end.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAppService } from '../../main/core/app-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { createMemorySecretStore } from '../harness/memory-secrets';
import { throttleTransport } from '../harness/throttle';
import { type ReferenceService, startReferenceService } from '../reference-service/server';

let dir: string;
let service: ReferenceService;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-progress-'));
  service = await startReferenceService({ dataDir: join(dir, 'service') });
});
afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

it('a 700 KB file at 1 MB/s reaches the queue listeners several times on its way', async () => {
  const app = await createAppService({
    dataDir: join(dir, 'app'),
    secrets: createMemorySecretStore(),
    transport: throttleTransport(createNodeTransport(), () => 1e6),
  });
  try {
    const ws = await app.addWorkspace({ name: 'Test', baseUrl: service.url });
    await app.setToken(ws.id, 'xoxb-test-token');
    const size = 700 * 1000;
    const path = join(dir, 'slides.pdf');
    await writeFile(path, Buffer.alloc(size, 7));
    const seen: number[] = [];
    app.on('queue-changed', (items) => {
      const item = items.find((i) => i.path === path);
      if (item?.state === 'sending' && item.sent > 0 && item.sent !== seen.at(-1)) {
        seen.push(item.sent);
      }
    });
    await app.share({ target: { workspaceId: ws.id, channels: ['C0GENERAL'] }, paths: [path] });
    await app.settled();
    const [item] = await app.listQueue();
    expect(item?.state).toBe('delivered');
    // About 0.7 s of bytes, reported to listeners about 10 times a second.
    expect(seen.filter((s) => s < size).length).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  } finally {
    await app.close();
  }
});
