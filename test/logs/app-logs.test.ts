// The app's log, written as the app writes it (the app service opened through
// createLoggedAppService, a log file in a temp folder, the real keychain under with-keyring),
// over real HTTP to the reference service: a share, a failure, a retry, a token refusal and a
// keychain problem. Then every log file and the diagnostics text are grepped for the token, the
// comment, the file's name and its contents: none may be there. With "Detailed logs" on, the
// name may be, the token and the comment still not.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import { diagnosticsText } from '../../main/core/log/about';
import { type FileLog, openFileLog } from '../../main/core/log/file-log';
import { createLoggedAppService } from '../../main/core/log/logged-service';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import { KeychainError, type SecretStore } from '../../main/core/secrets/secret-store';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { expectNoneOf, readLogs } from './grep-logs';

// Token-shaped, as Slack's are; the refused one is another.
const TOKEN = `xoxb-logs-${randomUUID().slice(0, 8)}-grep`;
const REFUSED_TOKEN = `xoxb-refused-${randomUUID().slice(0, 8)}`;
const COMMENT = 'Comment-Zq8 for the board, never logged';
const CONTENTS = 'Contents-Mq2 of a private plan';
const NAMES = ['Quarterly-Plan-7Hk.png', 'Retry-Budget-4Lp.txt', 'Refused-Memo-9Vb.pdf'];
const SECRETS = [TOKEN, REFUSED_TOKEN, COMMENT, 'Comment-Zq8', CONTENTS, 'Contents-Mq2'];
const NAME_PARTS = ['Quarterly-Plan-7Hk', 'Retry-Budget-4Lp', 'Refused-Memo-9Vb', 'Detailed-3Rt'];

let dir: string;
let service: ReferenceService;
let log: FileLog;
let app: AppService;
let workspaceId: string;
/** An injected fault: the next keychain read fails as a locked keyring does. */
let lockNextRead = false;

function faultyKeychain(store: SecretStore): SecretStore {
  return {
    ...store,
    get: async (account) => {
      if (lockNextRead) {
        lockNextRead = false;
        throw new KeychainError('locked', 'The keyring is locked (injected by the test).');
      }
      return store.get(account);
    },
  };
}

async function file(name: string): Promise<string> {
  const folder = join(dir, 'files', randomUUID());
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, name), `${CONTENTS}\n`);
  return join(folder, name);
}

async function share(name: string, channels = ['C0GENERAL']) {
  const result = await app.share({
    target: { workspaceId, channels },
    comment: COMMENT,
    paths: [await file(name)],
  });
  expect(result.refused).toEqual([]);
  await app.settled();
  return (await app.listQueue()).find((i) => i.shareId === result.shareId);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-app-logs-'));
  service = await startReferenceService({
    dataDir: join(dir, 'service'),
    config: { tokens: { [TOKEN]: { user: 'U0TEST', channels: ['C0GENERAL', 'C0DESIGN'] } } },
  });
  log = openFileLog({ dir: join(dir, 'logs'), name: 'trayshare.log' });
  app = await createLoggedAppService(
    {
      dataDir: join(dir, 'data'),
      secrets: faultyKeychain(
        createKeychainStore({ service: `Trayshare-test-logs-${randomUUID()}` }),
      ),
      transport: createNodeTransport(),
      retry: { maxAttempts: 5, baseDelayMs: 10, maxDelayMs: 50 },
    },
    log,
  );
  const workspace = await app.addWorkspace({
    name: 'Acme',
    baseUrl: service.url,
    protocol: 'external',
  });
  workspaceId = workspace.id;
  expect((await app.saveToken(workspaceId, REFUSED_TOKEN)).saved).toBe(false);
  expect((await app.saveToken(workspaceId, TOKEN)).saved).toBe(true);
});

afterAll(async () => {
  await app?.clearToken(workspaceId).catch(() => undefined);
  await app?.close();
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the app log', () => {
  it('says a delivered share with its protocol and file count, the file by kind and size', async () => {
    expect((await share(NAMES[0] as string))?.state).toBe('delivered');
    await expect
      .poll(async () => (await readLogs(log.dir)).get('trayshare.log'))
      .toMatch(
        /\[info\] +Share [0-9a-f-]{8} via external, 1 file to 1 channel: 1 delivered \(a \.png of 31 bytes\)/,
      );
  });

  it("says each retry, why, and the service's Retry-After", async () => {
    service.injectFault({
      method: 'files.getUploadURLExternal',
      fault: { kind: 'status', status: 503, retryAfter: 1 },
    });
    expect((await share(NAMES[1] as string))?.state).toBe('delivered');
    const text = (await readLogs(log.dir)).get('trayshare.log') ?? '';
    expect(text).toMatch(
      /\[warn\] +Retry: a \.txt of 31 bytes \(share [0-9a-f-]{8}, attempt 1\) tries again in 1 s after http_503 \(transient\): .*; the service asked to wait 1 s \(Retry-After\)/,
    );
  });

  it('says a failed share with its reason', async () => {
    service.injectFault({
      method: 'files.completeUploadExternal',
      fault: { kind: 'error', error: 'channel_not_found' },
    });
    expect((await share(NAMES[2] as string, ['C0DESIGN']))?.state).toBe('failed');
    const text = (await readLogs(log.dir)).get('trayshare.log') ?? '';
    expect(text).toMatch(
      /\[warn\] +Share [0-9a-f-]{8} via external, 1 file to 1 channel: 1 failed \(a \.pdf of 31 bytes: channel_not_found \(target\): /,
    );
  });

  it('says the token was refused, and a keychain problem', async () => {
    service.injectFault({
      method: 'files.getUploadURLExternal',
      fault: { kind: 'error', error: 'token_revoked' },
      times: 10,
    });
    expect((await share(NAMES[0] as string))?.state).toBe('waiting');
    lockNextRead = true;
    // The locked keychain is answered, not thrown: not checked, and saying why.
    expect(await app.testConnection(workspaceId)).toEqual({
      ok: false,
      checked: false,
      message: 'The keyring is locked (injected by the test).',
    });
    const text = (await readLogs(log.dir)).get('trayshare.log') ?? '';
    if (process.env.SHOW_LOG) console.log(text);
    expect(text).toMatch(
      /\[warn\] +Token refused for workspace “Acme”: This token has been revoked\./,
    );
    expect(text).toMatch(/\[warn\] +Keychain \(read\): locked: The keyring is locked/);
  });

  it('holds no token, comment, file name or contents, nor does the diagnostics text', async () => {
    const texts = await readLogs(log.dir);
    const diagnostics = await diagnosticsText({ service: app, log });
    texts.set('diagnostics', diagnostics);
    expectNoneOf([...SECRETS, ...NAMES, ...NAME_PARTS], texts);
    expect(diagnostics).toMatch(/^Trayshare diagnostics, \d{4}-/);
    expect(diagnostics).toContain(`Node: ${process.versions.node}`);
    expect(diagnostics).toContain('Protocols: external (1 workspace)');
    expect(diagnostics).toMatch(/Queue: 0 queued, 1 waiting, 0 sending, 2 delivered, 1 failed/);
    expect(diagnostics).toContain('Detailed logs: off');
    expect(diagnostics).toMatch(/Last \d+ log lines:\n.*Share /);
  });

  it('with "Detailed logs" on, names the file, and still never the token or comment', async () => {
    service.clearFaults();
    await app.setPreferences({ detailedLogs: true });
    const name = 'Detailed-3Rt.txt';
    await app.saveToken(workspaceId, TOKEN);
    expect((await share(name))?.state).toBe('delivered');
    const texts = await readLogs(log.dir);
    expect(texts.get('trayshare.log')).toContain(`“${name}” (31 bytes)`);
    texts.set('diagnostics', await diagnosticsText({ service: app, log }));
    expectNoneOf(SECRETS, texts);
    await app.setPreferences({ detailedLogs: false });
  });
});
