// `trayshare login --slack` and `logout` as a person runs them, against the reference service
// over real HTTP and the real keychain (run under build/scripts/with-keyring.mjs): with
// --no-browser the CLI prints the consent link, and a small script plays the person at the
// browser (slack-login-run.ts).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import { accessAccount, refreshAccount } from '../../main/core/secrets/workspace-secrets';
import { freePort, serviceFor } from '../auth/sign-in-helpers';
import type { ConsentChoice } from '../reference-service/consent-client';
import type { ReferenceService } from '../reference-service/server';
import { filesUnder, runCli } from './run-cli';
import { type LoginRun, loginWith as login } from './slack-login-run';

let dir: string;
let dataDir: string;
let port: number;
let service: ReferenceService;
let env: NodeJS.ProcessEnv;
const keychain = createKeychainStore();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-slack-login-'));
  dataDir = join(dir, 'data');
  port = await freePort();
  service = await serviceFor(dir, port);
  env = { TRAYSHARE_DATA_DIR: dataDir };
});
afterAll(async () => {
  for (const name of ['Acme', 'Denied', 'Late']) {
    await runCli(['logout', '--workspace', name, '--even-if-waiting'], { env });
  }
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI; once it prints the consent link, the person does `choice` (or nothing). */
function loginWith(args: string[], choice: ConsentChoice | 'away'): Promise<LoginRun> {
  return login({ baseUrl: service.url, ports: String(port), env, args, choice });
}

describe('trayshare login --slack', () => {
  it('prints the link, waits, and says "Signed in as @alice in Trayshare Reference"; a send then lands as alice', async () => {
    const run = await loginWith(['--workspace', 'Acme'], {});
    expect(run.stderr).toContain('Signed in as @alice in Trayshare Reference.');
    expect(run.code).toBe(0);
    expect((await runCli(['workspaces'], { env })).stdout).toContain(
      `Acme\t${service.url}\texternal\tsigned in as @alice\n`,
    );
    const [w] = JSON.parse((await runCli(['workspaces', '--json'], { env })).stdout);
    expect(w).toMatchObject({
      name: 'Acme',
      auth: 'slack',
      hasToken: true,
      signedIn: { user: '@alice', team: 'Trayshare Reference', expired: false },
    });
    const access = await keychain.get(accessAccount(w));
    const refresh = await keychain.get(refreshAccount(w));
    expect(service.refreshStatus(refresh!)).toBe('current');
    // Neither token is in any file, the output or the command line.
    for (const file of await filesUnder(dataDir)) {
      const text = await readFile(file, 'utf8');
      expect(text).not.toContain(access!);
      expect(text).not.toContain(refresh!);
    }
    // Nor the code and the verifier: every secret of the sign-in, from the service itself.
    const secrets = service.signInSecrets();
    expect(secrets).toContain(access);
    for (const secret of secrets) {
      expect(run.stdout + run.stderr + run.argv.join(' ')).not.toContain(secret);
      for (const file of await filesUnder(dataDir)) {
        expect(await readFile(file, 'utf8')).not.toContain(secret);
      }
    }
    const file = join(dir, 'report.txt');
    await writeFile(file, 'quarterly');
    const sent = await runCli(['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', file], {
      env,
    });
    expect(sent.code).toBe(0);
    expect(service.uploads().map((u) => [u.name, u.user])).toEqual([['report.txt', 'U0ALICE']]);
  });

  it('a sign-in an admin ended: send exits 4 saying to run login --slack; after it, queue --run sends the file once', async () => {
    service.revokeSignIns('U0ALICE');
    const file = join(dir, 'after-revoke.txt');
    await writeFile(file, 'second');
    const sent = await runCli(['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', file], {
      env,
    });
    expect(sent.code).toBe(4);
    expect(sent.stderr).toMatch(/run `trayshare login --slack`/);
    const again = await loginWith(['--workspace', 'Acme'], {});
    expect(again.stderr).toContain('Signed in as @alice in Trayshare Reference.');
    const run = await runCli(['queue', '--run'], { env });
    expect(run.code).toBe(0);
    expect(service.uploads().filter((u) => u.name === 'after-revoke.txt')).toHaveLength(1);
  });

  it('Deny: one plain sentence, exit 1, no workspace saved', async () => {
    const run = await loginWith(['--workspace', 'Denied'], { decision: 'deny' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'You chose not to allow Trayshare in the browser, so nothing was connected.',
    );
    const names = JSON.parse((await runCli(['workspaces', '--json'], { env })).stdout).map(
      (w: { name: string }) => w.name,
    );
    expect(names).not.toContain('Denied');
  });

  it('nobody approves: --timeout 1 ends it, exit 1, nothing saved', async () => {
    const run = await loginWith(['--workspace', 'Late', '--timeout', '1'], 'away');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'Nobody approved in the browser within a second, so the sign-in was stopped; nothing was saved.',
    );
    const names = JSON.parse((await runCli(['workspaces', '--json'], { env })).stdout).map(
      (w: { name: string }) => w.name,
    );
    expect(names).not.toContain('Late');
  });

  it('refuses the --slack options without --slack, and --protocol with it', async () => {
    const run = await runCli(['login', '--workspace', 'X', '--client-id', '1.2'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/go with --slack/);
    const both = await runCli(['login', '--slack', '--workspace', 'X', '--protocol', 'external'], {
      env,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--protocol goes with a pasted token/);
  });

  it('logout asks first while files wait, then revokes at the service and empties the keychain', async () => {
    const [w] = JSON.parse((await runCli(['workspaces', '--json'], { env })).stdout);
    const access = (await keychain.get(accessAccount(w)))!;
    // A file left waiting: the service refuses its upload as it would a bad token.
    service.injectFault({
      method: 'files.getUploadURLExternal',
      fault: { kind: 'error', error: 'invalid_auth' },
    });
    const file = join(dir, 'waiting.txt');
    await writeFile(file, 'later');
    await runCli(['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', file], { env });
    const refused = await runCli(['logout', '--workspace', 'Acme'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/1 file still waits to be sent to Acme: .*--even-if-waiting/);
    expect(await keychain.get(accessAccount(w))).toBe(access);
    const out = await runCli(['logout', '--workspace', 'Acme', '--even-if-waiting'], { env });
    expect(out.stderr).toContain('Signed out of Acme');
    expect(out.code).toBe(0);
    expect(await keychain.get(accessAccount(w))).toBeNull();
    expect(await keychain.get(refreshAccount(w))).toBeNull();
    const check = await fetch(`${service.url}/api/auth.test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access}` },
    });
    expect(await check.json()).toEqual({ ok: false, error: 'token_revoked' });
  });
});
