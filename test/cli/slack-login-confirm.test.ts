// `trayshare login --slack` keeps a new workspace only once the person says who signed in is
// them: someone else on the computer may have read the consent link and approved it first. On a
// terminal it asks "Keep this sign-in? … [y/N]"; without one it refuses before opening anything
// unless --yes says to keep whoever signs in. Against the reference service over real HTTP and
// the real keychain (run under build/scripts/with-keyring.mjs).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, issuedTokens, serviceFor } from '../auth/sign-in-helpers';
import { consent } from '../reference-service/consent-client';
import { DEFAULT_CLIENT_ID } from '../reference-service/oauth-config';
import type { ReferenceService } from '../reference-service/server';
import { CLI, runCli } from './run-cli';
import { loginWith } from './slack-login-run';

let dir: string;
let port: number;
let service: ReferenceService;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-slack-confirm-'));
  port = await freePort();
  service = await serviceFor(dir, port);
  env = { TRAYSHARE_DATA_DIR: join(dir, 'data') };
});
afterAll(async () => {
  for (const name of ['Scripted', 'Typed yes']) {
    await runCli(['logout', '--workspace', name, '--even-if-waiting'], { env });
  }
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

const names = async (): Promise<string[]> =>
  JSON.parse((await runCli(['workspaces', '--json'], { env })).stdout).map(
    (w: { name: string }) => w.name,
  );

/** Every access token the service issued, as auth.test answers it ('token_revoked' when ended). */
/**
 * The CLI on a real terminal (util-linux `script` gives it a pseudo-terminal; Node has none of
 * its own): once it prints the consent link the person approves in the "browser", and once it
 * asks, they type `answer`. Resolves with everything the terminal showed and the exit code.
 */
// posix-only: `script` is util-linux's, called only from the Linux test below.
function onTerminal(workspace: string, answer: string): Promise<{ code: number; shown: string }> {
  const argv = [
    process.execPath,
    CLI,
    'login',
    '--slack',
    '--no-browser',
    '--client-id',
    DEFAULT_CLIENT_ID,
    '--base-url',
    service.url,
    '--port',
    String(port),
    '--workspace',
    workspace,
  ];
  const command = argv.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn(
    'script',
    ['--quiet', '--return', '--flush', '--command', command, '/dev/null'],
    {
      env: { ...process.env, TRAYSHARE_TOKEN: '', ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  let shown = '';
  let approved = false;
  let answered = false;
  child.stdout.on('data', (d) => {
    shown += d;
    const link = /(http\S+\/oauth\/v2\/authorize\S+)/.exec(shown)?.[1];
    if (link && !approved) {
      approved = true;
      void consent(link, {});
    }
    if (!answered && shown.includes('[y/N]')) {
      answered = true;
      child.stdin.write(`${answer}\r`);
    }
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, shown });
    });
  });
}

describe('trayshare login --slack: who signed in, confirmed', () => {
  it('without a terminal and without --yes: refused before any link, exit 2, nothing saved', async () => {
    const run = await loginWith({
      baseUrl: service.url,
      ports: String(port),
      env,
      args: ['--workspace', 'Unasked'],
      choice: {},
      yes: false,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'Trayshare keeps a new sign-in only once you confirm who signed in, and cannot ask here (no terminal): run it in a terminal, or add --yes to keep whoever signs in.',
    );
    expect(run.link).toBeUndefined();
    expect(await names()).not.toContain('Unasked');
    expect(service.signInSecrets()).toEqual([]);
  });

  it('with --yes: says who signed in, and keeps it', async () => {
    const run = await loginWith({
      baseUrl: service.url,
      ports: String(port),
      env,
      args: ['--workspace', 'Scripted'],
      choice: {},
    });
    expect(run.stderr).toContain('Slack signed in @alice in Trayshare Reference.');
    expect(run.stderr).toContain('Signed in as @alice in Trayshare Reference.');
    expect(run.code).toBe(0);
    expect(await names()).toContain('Scripted');
  });

  it.runIf(process.platform === 'linux')(
    'on a terminal: asks "Keep this sign-in? … [y/N]"; n keeps nothing and ends the sign-in at the service, y keeps it',
    async () => {
      const before = (await issuedTokens(service)).length;
      const no = await onTerminal('Typed no', 'n');
      expect(no.shown).toContain('Slack signed in @alice in Trayshare Reference.');
      expect(no.shown).toContain(
        'Keep this sign-in? Answer no if @alice in Trayshare Reference is not you. [y/N] ',
      );
      expect(no.shown).toContain(
        'You did not keep the sign-in of @alice in Trayshare Reference, so nothing was saved and the sign-in was ended at the service.',
      );
      expect(no.code).toBe(1);
      expect(await names()).not.toContain('Typed no');
      expect((await issuedTokens(service)).slice(before)).toEqual(['token_revoked']);

      const yes = await onTerminal('Typed yes', 'y');
      expect(yes.shown).toContain('[y/N] ');
      expect(yes.shown).toContain('Signed in as @alice in Trayshare Reference.');
      expect(yes.code).toBe(0);
      expect(await names()).toContain('Typed yes');
    },
  );
});
