// Saving a token checks it with auth.test over real HTTP to the reference service: who it is
// for, a refused one not saved (the old one kept), a token the service refuses later shown as
// refused; and a new workspace's protocol is the one the service offers.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import { createAppService } from '../../main/core/app-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { createMemorySecretStore } from '../harness/memory-secrets';
import { type ReferenceService, startReferenceService } from '../reference-service/server';

let root: string;
let service: ReferenceService;
let app: AppService;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-token-check-'));
  service = await startReferenceService({ dataDir: join(root, 'service') });
});
afterAll(async () => {
  await service.close();
  await rm(root, { recursive: true, force: true });
});
afterEach(async () => {
  service.clearFaults();
  await app?.close();
});

async function open(): Promise<string> {
  app = await createAppService({
    dataDir: await mkdtemp(join(root, 'app-')),
    secrets: createMemorySecretStore(),
    transport: createNodeTransport(),
    retry: { maxAttempts: 1, baseDelayMs: 5, maxDelayMs: 10 },
  });
  return (await app.addWorkspace({ name: 'Acme', baseUrl: service.url })).id;
}

const workspace = async (id: string) =>
  (await app.getSnapshot()).workspaces.find((w) => w.id === id)!;

describe('saving a token', () => {
  it('checks it and says who it is for', async () => {
    const id = await open();
    const result = await app.saveToken(id, 'xoxb-test-token');
    expect(result).toMatchObject({ saved: true, ok: true, checked: true, user: 'u0test' });
    expect(await workspace(id)).toMatchObject({ hasToken: true });
    expect((await workspace(id)).tokenRefused).toBeUndefined();
  });

  it('does not save a token the service refuses, and keeps the one that works', async () => {
    const id = await open();
    await app.saveToken(id, 'xoxb-test-token');
    const wrong = await app.saveToken(id, 'xoxb-not-a-real-token');
    expect(wrong).toMatchObject({ saved: false, ok: false, refused: true });
    expect(wrong.message).toMatch(
      /^The service refused this token \(invalid_auth\), so it was not saved\./,
    );
    // The old token still sends.
    const path = join(root, 'still-works.txt');
    await writeFile(path, 'hello');
    await app.share({ target: { workspaceId: id, channels: ['C0GENERAL'] }, paths: [path] });
    await app.settled();
    expect((await app.listQueue())[0]?.state).toBe('delivered');
  });

  it('shows a token the service has refused since as refused, until a new one is saved', async () => {
    const id = await open();
    await app.saveToken(id, 'xoxb-test-token');
    service.injectFault({ method: 'auth.test', fault: { kind: 'error', error: 'token_revoked' } });
    const check = await app.testConnection(id);
    expect(check).toMatchObject({ ok: false, refused: true });
    expect((await workspace(id)).tokenRefused).toMatch(/revoked/);

    await app.saveToken(id, 'xoxb-test-token');
    expect((await workspace(id)).tokenRefused).toBeUndefined();

    // An upload the service refuses for the token says so too.
    service.injectFault({ fault: { kind: 'error', error: 'token_revoked' } });
    const path = join(root, 'revoked.txt');
    await writeFile(path, 'hello');
    await app.share({ target: { workspaceId: id, channels: ['C0GENERAL'] }, paths: [path] });
    await app.settled();
    expect((await workspace(id)).tokenRefused).toMatch(/revoked/);
  });
});

describe('the protocol of a new workspace', () => {
  it("is Slack's external protocol when the service offers it", async () => {
    await open();
    expect(await app.probeProtocol(service.url, 'xoxb-test-token')).toMatchObject({
      protocol: 'external',
      checked: true,
    });
  });

  it('is files.upload when the service does not know the external protocol', async () => {
    await open();
    service.injectFault({
      method: 'files.getUploadURLExternal',
      fault: { kind: 'error', error: 'unknown_method' },
    });
    expect(await app.probeProtocol(service.url, 'xoxb-test-token')).toMatchObject({
      protocol: 'files.upload',
      checked: true,
    });
  });

  it('says the service refused a wrong token, so no workspace is added with it', async () => {
    await open();
    expect(await app.probeProtocol(service.url, 'xoxb-wrong-token')).toMatchObject({
      checked: false,
      refused: true,
    });
  });

  it('is a stated guess without a token: external for slack.com, files.upload elsewhere', async () => {
    await open();
    expect(await app.probeProtocol('https://slack.com', '')).toMatchObject({
      protocol: 'external',
      checked: false,
    });
    const local = await app.probeProtocol(service.url, '');
    expect(local).toMatchObject({ protocol: 'files.upload', checked: false });
    expect(local.message).toMatch(/change it in Settings/);
  });
});
