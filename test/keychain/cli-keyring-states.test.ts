// The CLI against a real gnome-keyring that is locked, and one that was never set up (issue 15,
// item 1): each must be told apart from "no token saved", in send, queue --run and logout, and
// logout must never claim it removed (or found no) token while the keyring was locked.
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, type CliRun } from '../cli/run-cli';
import { type ReferenceService, startReferenceService } from '../reference-service/server';

const TOKEN = 'xoxb-test-token';
let scratch: string;
let service: ReferenceService;

/** One `trayshare` run in its own D-Bus session on `home`; `unlock` unlocks (or creates) the login keyring first. */
// posix-only: dbus-run-session and bash, for the Linux-only suite below (Secret Service states).
function cliInSession(
  home: string,
  args: string[],
  opts: { unlock?: boolean; input?: string; pidFile?: string } = {},
): Promise<CliRun> {
  const prelude = opts.unlock
    ? 'eval "$(printf %s keyring-password | gnome-keyring-daemon --unlock --components=secrets)"'
    : '';
  // `exec` keeps the shell's pid, so $$ is the CLI's own pid.
  const pidNote = opts.pidFile ? `echo $$ > '${opts.pidFile}'` : '';
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_RUNTIME_DIR: join(home, 'run'),
    LANG: 'C.UTF-8',
    TRAYSHARE_DATA_DIR: join(home, 'data'),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(
      'dbus-run-session',
      [
        '--',
        'bash',
        '-c',
        `${prelude}\n${pidNote}\nexec "$@"`,
        'cli',
        process.execPath,
        CLI,
        ...args,
      ],
      { env, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      // Only the CLI's own lines: D-Bus and gnome-keyring chatter on the same stderr.
      const own = stderr
        .split('\n')
        .filter(
          (l) =>
            !/dbus-daemon|gnome-keyring|gcr-prompter|Gtk-WARNING|^\*\*|discover_other_daemon|^\s*$/.test(
              l,
            ),
        )
        .join('\n');
      resolve({ code, stdout, stderr: own });
    });
    child.stdin.end(opts.input ?? '');
  });
}

async function newHome(name: string): Promise<string> {
  const home = join(scratch, name);
  await mkdir(join(home, 'run'), { recursive: true, mode: 0o700 });
  return home;
}

describe.skipIf(process.platform !== 'linux')(
  'CLI on a locked or never-set-up gnome-keyring',
  () => {
    let home: string;
    let file: string;

    beforeAll(async () => {
      scratch = await mkdtemp(join(tmpdir(), 'trayshare-keyring-states-'));
      service = await startReferenceService({ dataDir: join(scratch, 'service') });
      file = join(scratch, 'report.txt');
      await writeFile(file, 'quarterly numbers\n');
      home = await newHome('locked');
      const login = await cliInSession(
        home,
        ['login', '--workspace', 'Acme', '--base-url', service.url],
        { unlock: true, input: `${TOKEN}\n` },
      );
      expect(login.stderr).toMatch(/Saved Acme/);
      expect(login.code).toBe(0);

      // A send interrupted while the keyring was open left the file queued (the queue was paused,
      // as the tray's pause leaves it, so the file waits in the journal when the process dies).
      const state = join(home, 'data', 'cli-state');
      await mkdir(state, { recursive: true });
      await writeFile(join(state, 'paused'), '');
      const pidFile = join(home, 'send.pid');
      const interrupted = cliInSession(
        home,
        ['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', file],
        { unlock: true, pidFile },
      );
      for (;;) {
        const journal = await readFile(join(state, 'queue', 'queue.jsonl'), 'utf8').catch(() => '');
        if (journal.includes('report.txt')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      // (It may already have ended on its own: a paused queue leaves it nothing to wait for.)
      try {
        process.kill(Number(await readFile(pidFile, 'utf8')), 'SIGKILL');
      } catch {}
      await interrupted;
      await rm(join(state, 'paused'));
      // The same queue, for the keyring that was never set up.
      await cp(join(home, 'data'), join(scratch, 'queued-data'), { recursive: true });
    }, 120_000);

    afterAll(async () => {
      await service?.close();
      await rm(scratch, { recursive: true, force: true });
    });

    it('locked: send, queue --run and logout say the keyring is locked, exit 3, and the token survives', async () => {
      const before = service.uploads().length;
      const send = await cliInSession(home, [
        'send',
        '--workspace',
        'Acme',
        '--channels',
        'C0GENERAL',
        file,
      ]);
      expect(send.stderr).toMatch(/keyring is locked/);
      expect(send.stderr).not.toMatch(/no token/i);
      expect(send.code).toBe(3);

      const run = await cliInSession(home, ['queue', '--run']);
      expect(run.stderr).toMatch(/keyring is locked/);
      expect(run.stderr).not.toMatch(/no token/i);
      expect(run.code).toBe(3);
      expect(run.stdout).toMatch(/waiting\treport\.txt/);

      const logout = await cliInSession(home, ['logout', '--workspace', 'Acme']);
      expect(logout.stderr).toMatch(/keyring is locked/);
      expect(logout.stderr).not.toMatch(/had no token|Removed the token/);
      expect(logout.code).toBe(3);
      expect(service.uploads().length).toBe(before);

      // Unlocked, the token was there all along: the queued file goes, and logout removes it.
      const unlocked = await cliInSession(home, ['queue', '--run'], { unlock: true });
      expect(unlocked.code).toBe(0);
      expect(unlocked.stdout).toMatch(/delivered\treport\.txt/);
      expect(service.uploads().length).toBe(before + 1);
      const removed = await cliInSession(home, ['logout', '--workspace', 'Acme'], { unlock: true });
      expect(removed.stderr).toMatch(/Removed the token of Acme/);

      // And now a token that is really absent, in an unlocked keyring, is said to be absent.
      const absent = await cliInSession(
        home,
        ['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', file],
        { unlock: true },
      );
      expect(absent.stderr).toMatch(/no token/i);
      expect(absent.stderr).not.toMatch(/locked/);
      expect(absent.code).not.toBe(0);
    }, 240_000);

    it('never set up: send, queue --run and logout say there is no default (login) keyring, not "no token", and exit 3', async () => {
      const bare = await newHome('never-set-up');
      // The settings and the queued file of the locked home, before anything was sent.
      await cp(join(scratch, 'queued-data'), join(bare, 'data'), { recursive: true });
      const send = await cliInSession(bare, [
        'send',
        '--workspace',
        'Acme',
        '--channels',
        'C0GENERAL',
        file,
      ]);
      expect(send.stderr).toMatch(/no default \(login\) keyring/);
      expect(send.stderr).not.toMatch(/no token/i);
      expect(send.code).toBe(3);
      const run = await cliInSession(bare, ['queue', '--run']);
      expect(run.stderr).toMatch(/no default \(login\) keyring/);
      expect(run.stderr).not.toMatch(/no token/i);
      expect(run.code).toBe(3);
      expect(run.stdout).toMatch(/waiting\treport\.txt/);
      const logout = await cliInSession(bare, ['logout', '--workspace', 'Acme']);
      expect(logout.stderr).toMatch(/no default \(login\) keyring/);
      expect(logout.stderr).not.toMatch(/had no token|Removed the token/);
      expect(logout.code).toBe(3);
    }, 120_000);
  },
);
