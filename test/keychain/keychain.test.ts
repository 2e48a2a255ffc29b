// The app's secret store against a real gnome-keyring (run through `bash test/with-keyring.sh`),
// and the keychain failures people meet on Linux, each produced for real in a child process:
// no D-Bus session, a D-Bus session with no Secret Service, a keyring that was never set up, and
// a locked keyring. macOS and Windows keychains cannot be scripted here.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import { KEYCHAIN_SERVICE } from '../../main/core/secrets/secret-store';

const linux = process.platform === 'linux';
const PROBE = resolve('test/keychain/probe.ts');
const SERVICE = `Trayshare-test-${randomUUID()}`;

interface ProbeResult {
  ok: boolean;
  value?: unknown;
  problem?: string;
  message?: string;
}

let scratch: string;

/** A bare environment: no session bus, no display, a fresh home and runtime folder. */
async function isolatedEnv(home?: string): Promise<NodeJS.ProcessEnv> {
  const base = await mkdtemp(join(scratch, 'env-'));
  const runtime = join(base, 'run');
  await mkdir(runtime, { mode: 0o700 });
  return {
    PATH: process.env.PATH,
    HOME: home ?? base,
    XDG_RUNTIME_DIR: runtime,
    LANG: 'C.UTF-8',
  };
}

/**
 * Runs probe.ts (one keychain operation) as a child. `session` wraps it in a private D-Bus
 * session: 'standard' uses the system's session config (gnome-keyring is D-Bus-activatable),
 * 'bare' a config that knows no services at all; `prelude` runs in the session first.
 */
function probe(
  op: 'get' | 'set' | 'delete',
  opts: {
    env: NodeJS.ProcessEnv;
    session?: 'standard' | 'bare';
    prelude?: string;
    secret?: string;
    account?: string;
  },
): Promise<ProbeResult> {
  const node = [process.execPath, '--import', 'tsx', PROBE, op, opts.account ?? 'w-probe', SERVICE];
  const script = `${opts.prelude ?? ''}\nexec "$@"`;
  const command = opts.session
    ? [
        'dbus-run-session',
        ...(opts.session === 'bare' ? [`--config-file=${join(scratch, 'bare-session.conf')}`] : []),
        '--',
        'bash',
        '-c',
        script,
        'probe',
        ...node,
      ]
    : node;
  return new Promise((done, reject) => {
    const child = execFile(
      command[0] as string,
      command.slice(1),
      { env: opts.env, cwd: process.cwd(), timeout: 30_000 },
      (error, stdout, stderr) => {
        const line = stdout.split('\n').find((l) => l.startsWith('{'));
        if (!line) {
          reject(new Error(`probe printed no result (${error?.message ?? ''}): ${stderr}`));
          return;
        }
        done(JSON.parse(line) as ProbeResult);
      },
    );
    child.stdin?.end(opts.secret ?? '');
  });
}

describe.skipIf(!linux)(
  'keychain store on a real gnome-keyring (skipped off Linux: macOS and Windows keychains cannot be driven headless here)',
  () => {
    const store = createKeychainStore({ service: SERVICE });
    const used: string[] = [];
    const account = (): string => {
      const id = randomUUID();
      used.push(id);
      return id;
    };

    beforeAll(async () => {
      scratch = await mkdtemp(join(tmpdir(), 'trayshare-keychain-'));
      // A session bus that can start no service: "no Secret Service provider" without uninstalling.
      const empty = join(scratch, 'no-services');
      await mkdir(empty);
      await writeFile(
        join(scratch, 'bare-session.conf'),
        `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=${scratch}</listen>
  <auth>EXTERNAL</auth>
  <servicedir>${empty}</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`,
      );
      if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
        throw new Error('No D-Bus session: run these tests with `bash test/with-keyring.sh`.');
      }
    });

    afterAll(async () => {
      for (const id of used) await store.delete(id).catch(() => undefined);
      await rm(scratch, { recursive: true, force: true });
    });

    it('stores, reads, replaces and deletes a token', async () => {
      const id = account();
      expect(await store.get(id)).toBeNull();
      await store.set(id, 'xoxb-first-token');
      expect(await store.get(id)).toBe('xoxb-first-token');
      await store.set(id, 'xoxb-second-token');
      expect(await store.get(id)).toBe('xoxb-second-token');
      expect(await store.delete(id)).toBe(true);
      expect(await store.get(id)).toBeNull();
      expect(await store.delete(id)).toBe(false);
    });

    it('keeps two workspaces’ tokens apart', async () => {
      const a = account();
      const b = account();
      await store.set(a, 'xoxb-token-a');
      await store.set(b, 'xoxb-token-b');
      expect(await store.get(a)).toBe('xoxb-token-a');
      expect(await store.get(b)).toBe('xoxb-token-b');
      await store.set(a, 'xoxb-token-a2');
      expect(await store.get(b)).toBe('xoxb-token-b');
      await store.delete(b);
      expect(await store.get(a)).toBe('xoxb-token-a2');
      expect(await store.get(b)).toBeNull();
    });

    it('the default store files tokens under service "Trayshare", with the account it is given', async () => {
      const id = account();
      const appStore = createKeychainStore();
      const keytar = (await import('keytar')).default;
      try {
        await appStore.set(id, 'xoxb-app-token');
        expect(await keytar.getPassword(KEYCHAIN_SERVICE, id)).toBe('xoxb-app-token');
        expect(await store.get(id)).toBeNull();
      } finally {
        await appStore.delete(id);
      }
    });

    it('a child process sees what the app stored (the keychain is shared, not in-process)', async () => {
      const id = account();
      await store.set(id, 'xoxb-shared-token');
      const result = await probe('get', { env: process.env, account: id });
      expect(result).toEqual({ ok: true, value: 'xoxb-shared-token' });
    });

    it('no D-Bus session at all: says there is no Secret Service and what to install', async () => {
      const result = await probe('set', { env: await isolatedEnv(), secret: 'xoxb-never-stored' });
      expect(result).toMatchObject({ ok: false, problem: 'no-secret-service' });
      expect(result.message).toMatch(/no D-Bus session/);
      expect(result.message).toMatch(/gnome-keyring/);
      expect(result.message).toMatch(/KWallet/);
      expect(result.message).toMatch(/desktop session/);
      expect(result.message).not.toContain('xoxb-never-stored');
      const read = await probe('get', { env: await isolatedEnv() });
      expect(read).toMatchObject({ ok: false, problem: 'no-secret-service' });
    });

    it('a D-Bus session where nothing provides the Secret Service: says what to install', async () => {
      const result = await probe('set', {
        env: await isolatedEnv(),
        session: 'bare',
        secret: 'xoxb-never-stored',
      });
      expect(result).toMatchObject({ ok: false, problem: 'no-secret-service' });
      expect(result.message).toMatch(/nothing provides org\.freedesktop\.secrets/);
      expect(result.message).toMatch(/sudo apt install gnome-keyring/);
      expect(result.message).toMatch(/KWallet/);
      const read = await probe('get', { env: await isolatedEnv(), session: 'bare' });
      expect(read).toMatchObject({ ok: false, problem: 'no-secret-service' });
    });

    it('gnome-keyring running but never set up, and no prompt possible: says to create/unlock it', async () => {
      // D-Bus starts gnome-keyring on demand; with no login keyring and no display it cannot ask.
      const result = await probe('set', {
        env: await isolatedEnv(),
        session: 'standard',
        secret: 'xoxb-never-stored',
      });
      expect(result).toMatchObject({ ok: false, problem: 'locked' });
      expect(result.message).toMatch(/create or unlock the login keyring/);
    });

    it('a locked keyring: says it is locked and how to unlock it', async () => {
      const env = await isolatedEnv();
      // First session: the login keyring is created with a password and unlocked, as at login.
      const first = await probe('set', {
        env,
        session: 'standard',
        prelude:
          'eval "$(printf %s keyring-password | gnome-keyring-daemon --unlock --components=secrets)"',
        secret: 'xoxb-stored-while-unlocked',
      });
      expect(first).toEqual({ ok: true, value: null });
      // Next session, same home: the daemon starts without the password, so the keyring stays
      // locked, and the unlock prompt cannot be shown.
      const locked = await probe('set', {
        env,
        session: 'standard',
        secret: 'xoxb-second-attempt',
      });
      expect(locked).toMatchObject({ ok: false, problem: 'locked' });
      expect(locked.message).toMatch(/keyring is locked/);
      expect(locked.message).toMatch(/Unlock your login keyring/);
      expect(locked.message).not.toContain('xoxb-second-attempt');
    });
  },
);
