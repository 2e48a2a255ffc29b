// A pasted image goes out like any file over real HTTP to the reference service, and its
// temporary PNG goes once nothing can send it any more: delivered, cancelled, a failed row
// cleared, or left over from an earlier run.
import { createHash } from 'node:crypto';
import { access, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import { createAppService } from '../../main/core/app-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { createMemorySecretStore } from '../harness/memory-secrets';
import { TINY_PNG } from '../harness/tiny-png';
import { type ReferenceService, startReferenceService } from '../reference-service/server';

let root: string;
let service: ReferenceService;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-paste-'));
  service = await startReferenceService({ dataDir: join(root, 'service') });
});
afterAll(async () => {
  await service.close();
  await rm(root, { recursive: true, force: true });
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

let app: AppService | undefined;
let dataDir: string;
let workspaceId: string;
const secrets = createMemorySecretStore();

async function open(): Promise<AppService> {
  app = await createAppService({
    dataDir,
    secrets,
    transport: createNodeTransport(),
    retry: { maxAttempts: 1, baseDelayMs: 5, maxDelayMs: 10 },
  });
  return app;
}

async function fresh(): Promise<AppService> {
  dataDir = await mkdtemp(join(root, 'app-'));
  const a = await open();
  const ws = await a.addWorkspace({ name: 'Acme', baseUrl: service.url });
  await a.setToken(ws.id, 'xoxb-test-token');
  workspaceId = ws.id;
  return a;
}

afterEach(async () => {
  service.clearFaults();
  await app?.close();
  app = undefined;
});

const share = (a: AppService, path: string) =>
  a.share({ target: { workspaceId, channels: ['C0GENERAL'] }, paths: [path] });

describe('a pasted image', () => {
  it('is delivered as a PNG named for the paste, and its temporary file is removed', async () => {
    const a = await fresh();
    const path = await a.savePastedImage(TINY_PNG.toString('base64'));
    expect(dirname(path)).toBe(join(dataDir, 'state', 'pasted'));
    expect(basename(path)).toMatch(/^Screenshot \d{4}-\d\d-\d\d at \d\d\.\d\d\.\d\d\.png$/);
    await share(a, path);
    await a.settled();
    const [item] = await a.listQueue();
    expect(item?.state).toBe('delivered');
    const upload = service.uploads().find((u) => u.name === basename(path));
    expect(upload?.sha256).toBe(createHash('sha256').update(TINY_PNG).digest('hex'));
    expect(upload?.channels).toEqual(['C0GENERAL']);
    await expect.poll(() => exists(path)).toBe(false);
  });

  it('is removed when its upload is cancelled', async () => {
    const a = await fresh();
    await a.setPaused(true);
    const path = await a.savePastedImage(TINY_PNG.toString('base64'));
    const { items } = await share(a, path);
    expect(await exists(path)).toBe(true);
    await a.cancelItem(items[0]!.id);
    await expect.poll(() => exists(path)).toBe(false);
  });

  it('stays while its failed row can be retried, and goes when the row is cleared', async () => {
    const a = await fresh();
    service.injectFault({ fault: { kind: 'error', error: 'storage_limit_reached' } });
    const path = await a.savePastedImage(TINY_PNG.toString('base64'));
    await share(a, path);
    await a.settled();
    const [failed] = await a.listQueue();
    expect(failed?.state).toBe('failed');
    expect(await exists(path)).toBe(true);
    await a.clearFinished();
    await expect.poll(() => exists(path)).toBe(false);
  });

  it('left over from an earlier run is removed at start, unless a queued upload still needs it', async () => {
    const a = await fresh();
    await a.setPaused(true);
    const waiting = await a.savePastedImage(TINY_PNG.toString('base64'));
    await share(a, waiting);
    await a.close();
    app = undefined;
    // A paste whose share sheet was closed, and a file from a run that stopped mid-removal.
    const leftover = join(dataDir, 'state', 'pasted', 'Screenshot 2026-01-01 at 00.00.00.png');
    await mkdir(dirname(leftover), { recursive: true });
    await writeFile(leftover, TINY_PNG);

    const b = await open();
    expect(await readdir(join(dataDir, 'state', 'pasted'))).toEqual([basename(waiting)]);
    await b.setPaused(false);
    await b.settled();
    expect((await b.listQueue())[0]?.state).toBe('delivered');
    await expect.poll(() => exists(waiting)).toBe(false);
  });

  it('refuses base64 that is not a PNG', async () => {
    const a = await fresh();
    await expect(a.savePastedImage(Buffer.from('just text').toString('base64'))).rejects.toThrow(
      'not a PNG image',
    );
  });
});
