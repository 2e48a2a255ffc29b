// `trayshare login --slack` and `logout` where they used to go wrong (issue 32), as a person runs
// them: two sign-ins at once, every redirect port taken, a re-sign-in pointed at another host,
// and a revocation the service refuses. Against the reference service over real HTTP, the real
// keychain (under build/scripts/with-keyring.mjs), and the built CLI.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import { accessAccount, refreshAccount } from '../../main/core/secrets/workspace-secrets';
import { slackRedirectUri } from '../../main/portable/slack-sign-in';
import { freePorts, serviceFor } from '../auth/sign-in-helpers';
import { consent } from '../reference-service/consent-client';
import type { ReferenceService } from '../reference-service/server';
import { runCli } from './run-cli';
import { loginWith } from './slack-login-run';

let dir: string;
let ports: number[];
let service: ReferenceService;
let env: NodeJS.ProcessEnv;
const keychain = createKeychainStore();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-slack-login-safety-'));
  ports = await freePorts(3);
  // The Slack app lists all three redirect URLs, as the manifest does.
  service = await serviceFor(dir, ports);
  env = { TRAYSHARE_DATA_DIR: join(dir, 'data') };
});
afterAll(async () => {
  for (const name of ['One', 'Two', 'Acme']) {
    await runCli(['logout', '--workspace', name, '--even-if-waiting'], { env });
  }
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

const login = (
  args: string[],
  choice: Parameters<typeof loginWith>[0]['choice'],
  onLink?: (l: string) => void,
) =>
  loginWith({
    baseUrl: service.url,
    ports: ports.join(','),
    env,
    args,
    choice,
    ...(onLink ? { onLink } : {}),
  });

async function workspaces(): Promise<{ id: string; name: string; baseUrl: string }[]> {
  return JSON.parse((await runCli(['workspaces', '--json'], { env })).stdout);
}

const authTest = async (token: string) =>
  (await (
    await fetch(`${service.url}/api/auth.test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    })
  ).json()) as { ok: boolean; error?: string };

describe('trayshare login --slack', () => {
  it('two sign-ins at once (two terminals): each waits on its own port, and both sign in', async () => {
    const links: string[] = [];
    let bothWaiting!: () => void;
    const waiting = new Promise<void>((resolve) => {
      bothWaiting = resolve;
    });
    const onLink = (link: string) => {
      links.push(link);
      if (links.length === 2) bothWaiting();
    };
    const one = login(['--workspace', 'One'], 'away', onLink);
    const two = login(['--workspace', 'Two'], 'away', onLink);
    // Both print their links, so both are waiting for the browser at the same time.
    await waiting;
    const redirects = links.map((l) => new URL(l).searchParams.get('redirect_uri'));
    expect(new Set(redirects).size).toBe(2);
    for (const r of redirects) expect(slackRedirectUri(Number(new URL(r!).port))).toBe(r);
    // Then each person approves in their own tab.
    await consent(links[0]!, {});
    await consent(links[1]!, {});
    const [a, b] = await Promise.all([one, two]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(a.stderr).toContain('Signed in as @alice in Trayshare Reference.');
    expect(b.stderr).toContain('Signed in as @alice in Trayshare Reference.');
    expect((await workspaces()).map((w) => w.name).sort()).toEqual(['One', 'Two']);
  });

  it('every port taken: says which program holds each, and no link is printed', async () => {
    const holder = await holdPorts(ports);
    try {
      const run = await login(['--workspace', 'Nobody'], {});
      expect(run.code).toBe(1);
      expect(run.link).toBeUndefined();
      for (const port of ports) expect(run.stderr).toContain(String(port));
      // Linux, macOS and Windows can each tell which process listens.
      expect(run.stderr).toContain(`(process ${holder.pid})`);
      expect((await workspaces()).map((w) => w.name)).not.toContain('Nobody');
    } finally {
      holder.kill();
    }
  });

  it('signing a workspace in again at another host: refused before anything is sent there; the workspace, its token and its shares stay', async () => {
    const first = await login(['--workspace', 'Acme'], {});
    expect(first.code).toBe(0);
    const acme = (await workspaces()).find((w) => w.name === 'Acme')!;
    const token = (await keychain.get(accessAccount(acme)))!;
    // Another host that records anything sent to it.
    const seen: string[] = [];
    const other: Server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    try {
      const run = await loginWith({
        baseUrl: otherUrl,
        ports: ports.join(','),
        env,
        args: ['--workspace', 'Acme'],
        choice: {},
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `Acme is a workspace at ${service.url}, so it cannot be signed in at ${otherUrl}`,
      );
      expect(seen).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
    expect((await workspaces()).find((w) => w.name === 'Acme')?.baseUrl).toBe(service.url);
    expect(await keychain.get(accessAccount(acme))).toBe(token);
    expect((await authTest(token)).ok).toBe(true);
    const file = join(dir, 'still-here.txt');
    await writeFile(file, 'still here');
    const sent = await runCli(['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', file], {
      env,
    });
    expect(sent.code).toBe(0);
    expect(service.uploads().filter((u) => u.name === 'still-here.txt')).toHaveLength(1);
  });
});

describe('trayshare logout', () => {
  it('when auth.revoke fails: says the token could not be revoked at the service, exits 1, and still empties the keychain', async () => {
    const acme = (await workspaces()).find((w) => w.name === 'Acme')!;
    const token = (await keychain.get(accessAccount(acme)))!;
    service.injectFault({
      method: 'auth.revoke',
      fault: { kind: 'error', error: 'internal_error' },
    });
    const out = await runCli(['logout', '--workspace', 'Acme'], { env });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('could not be revoked');
    expect(out.stderr).not.toContain('was revoked');
    expect(await keychain.get(accessAccount(acme))).toBeNull();
    expect(await keychain.get(refreshAccount(acme))).toBeNull();
    // What it said is true: the service never ended it.
    expect((await authTest(token)).ok).toBe(true);
    service.clearFaults();
  });
});

/** A separate program listening on every port, until killed. */
async function holdPorts(list: number[]): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const net = require('node:net');
       let left = ${list.length};
       for (const p of ${JSON.stringify(list)}) net.createServer().listen(p, '127.0.0.1', () => {
         if (--left === 0) console.log('listening');
       });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      if (String(d).includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the port holder exited (${code})`)));
  });
  return child;
}
