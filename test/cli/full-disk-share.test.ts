// A share whose state folder fills up while it is sent (issue 27, items 9 and 11), over real
// HTTP with a real tmpfs: the files wait, said in words that name the folder, and the share
// stays one message; nothing is reported that the journal does not hold. Mounting needs root
// (Linux): without it these tests skip and say why.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Tmpfs, tmpfsOrSkipReason } from '../queue/tmpfs';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { CLI, jsonLines, runCli } from './run-cli';

let dir: string;
let service: ReferenceService;
let disk: Tmpfs | string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-full-share-'));
  service = await startReferenceService({ dataDir: join(dir, 'service') });
  disk = await tmpfsOrSkipReason(join(dir, 'mnt'), '2m');
  if (typeof disk === 'string') return;
  env = { TRAYSHARE_DATA_DIR: join(disk.dir, 'data') };
  const login = await runCli(
    ['login', '--workspace', 'Slack', '--base-url', service.url, '--protocol', 'external'],
    { env, input: 'xoxb-test-token\n' },
  );
  expect(login.code).toBe(0);
  const plain = await runCli(['login', '--workspace', 'Plain', '--base-url', service.url], {
    env,
    input: 'xoxb-test-token\n',
  });
  expect(plain.code).toBe(0);
});

afterEach(async () => {
  if (typeof disk !== 'string') {
    await runCli(['logout', '--workspace', 'Slack'], { env });
    await runCli(['logout', '--workspace', 'Plain'], { env });
    disk.unmount();
  }
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

async function manyFiles(count: number): Promise<string[]> {
  const files = Array.from({ length: count }, (_, i) => join(dir, `${i + 1}.bin`));
  for (const [i, f] of files.entries()) await writeFile(f, Buffer.alloc(64 * 1024, i + 1));
  return files;
}

async function fiveFiles(): Promise<string[]> {
  const files = ['1.bin', '2.bin', '3.bin', '4.bin', '5.bin'].map((n) => join(dir, n));
  for (const [i, f] of files.entries()) await writeFile(f, Buffer.alloc(64 * 1024, i + 1));
  return files;
}

interface Running {
  child: ChildProcess;
  stderr: () => string;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function startCli(args: string[]): Running {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, TRAYSHARE_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, stderr: () => stderr, done };
}

async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** The share's five files are in the journal (fsynced) before the disk fills. */
async function journaled(tmpfs: Tmpfs, count: number): Promise<void> {
  const journal = join(tmpfs.dir, 'data', 'cli-state', 'queue', 'queue.jsonl');
  await until('the journal', async () => {
    const text = await readFile(journal, 'utf8').catch(() => '');
    return text.split('"t":"add"').length - 1 >= count;
  });
}

describe('a full disk during a share', () => {
  it('freed while the share is sent: the files wait, then go as one message, once', async (ctx) => {
    if (typeof disk === 'string') {
      console.warn(`skipped: ${disk}`);
      return ctx.skip();
    }
    const files = await fiveFiles();
    // The bytes take a while to be answered, so the disk fills while they are on their way.
    service.injectFault({ fault: { kind: 'slow', delayMs: 1500 }, method: 'upload', times: 5 });
    const before = service.messages().length;
    const send = startCli([
      'send',
      '--workspace',
      'Slack',
      '--channels',
      'C0GENERAL',
      '--comment',
      'Five files',
      '--json',
      ...files,
    ]);
    await journaled(disk, 5);
    await disk.fill();
    const queueDir = join(disk.dir, 'data', 'cli-state', 'queue');
    const said = `Trayshare cannot write to ${queueDir}: the disk is full. Free some space; the files wait.`;
    await until('the disk-full notice', () => send.stderr().includes(said));
    await disk.free();
    const sent = await send.done;

    expect(sent.stderr.split(said)).toHaveLength(2);
    expect(sent.stderr).not.toMatch(/internal error|ENOSPC/);
    expect(jsonLines(sent.stdout).map((r) => r.outcome)).toEqual(Array(5).fill('delivered'));
    expect(sent.code).toBe(0);
    const made = service.messages().slice(before);
    expect(made).toHaveLength(1);
    expect(made[0]?.files).toHaveLength(5);
    expect(made[0]?.initial_comment).toBe('Five files');

    // Nothing is left to send: the journal holds what the send said.
    const run = await runCli(['queue', '--run'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout.match(/\tdelivered\t\d\.bin\t/g)).toHaveLength(5);
    expect(service.messages().slice(before)).toHaveLength(1);
  }, 90_000);

  it('still full when the send stops waiting: says the files wait, and `queue --run` sends them as one message later', async (ctx) => {
    if (typeof disk === 'string') {
      console.warn(`skipped: ${disk}`);
      return ctx.skip();
    }
    const files = await fiveFiles();
    service.injectFault({ fault: { kind: 'slow', delayMs: 1500 }, method: 'upload', times: 5 });
    const before = service.messages().length;
    const send = startCli([
      'send',
      '--workspace',
      'Slack',
      '--channels',
      'C0GENERAL',
      '--comment',
      'Five files',
      '--json',
      '--max-wait',
      '2',
      ...files,
    ]);
    await journaled(disk, 5);
    await disk.fill();
    const sent = await send.done;

    const lines = jsonLines(sent.stdout);
    expect(lines).toHaveLength(5);
    // None is called failed (a person would send it again) and none delivered that was not.
    for (const line of lines) {
      expect(line.outcome).toBe('queued');
      expect(line.message).toMatch(/Trayshare cannot write to .*cli-state.*: the disk is full/);
    }
    expect(sent.stderr).not.toMatch(/internal error|ENOSPC/);
    expect(sent.code).toBe(1);
    expect(service.messages().slice(before)).toHaveLength(0);

    await disk.free();
    const run = await runCli(['queue', '--run'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout.match(/\tdelivered\t\d\.bin\t/g)).toHaveLength(5);
    const made = service.messages().slice(before);
    expect(made).toHaveLength(1);
    expect(made[0]?.files).toHaveLength(5);
    expect(made[0]?.initial_comment).toBe('Five files');
  }, 90_000);

  it('files.upload, freed while the files are sent: every file delivered once, as said', async (ctx) => {
    if (typeof disk === 'string') {
      console.warn(`skipped: ${disk}`);
      return ctx.skip();
    }
    const files = await manyFiles(8);
    // Answers come late, so more records are due after the disk filled than it has room for.
    service.injectFault({ fault: { kind: 'slow', delayMs: 1000 }, times: 8 });
    const before = service.uploads().length;
    const send = startCli([
      'send',
      '--workspace',
      'Plain',
      '--channels',
      'C0GENERAL',
      '--json',
      ...files,
    ]);
    await journaled(disk, 8);
    await disk.fill();
    await until('the disk-full notice', () => /the disk is full/.test(send.stderr()));
    await disk.free();
    const sent = await send.done;

    expect(jsonLines(sent.stdout).map((r) => r.outcome)).toEqual(Array(8).fill('delivered'));
    expect(sent.stderr).not.toMatch(/internal error|ENOSPC/);
    expect(sent.code).toBe(0);
    const names = service
      .uploads()
      .slice(before)
      .map((u) => u.name)
      .sort();
    expect(names).toEqual(files.map((f) => basename(f)).sort());
    const queue = await runCli(['queue'], { env });
    expect(queue.stdout.match(/\tdelivered\t\d\.bin\t/g)).toHaveLength(8);
  }, 90_000);

  it('files.upload, still full when the send stops waiting: each outcome said is the one the queue holds after', async (ctx) => {
    if (typeof disk === 'string') {
      console.warn(`skipped: ${disk}`);
      return ctx.skip();
    }
    const files = await manyFiles(8);
    service.injectFault({ fault: { kind: 'slow', delayMs: 1000 }, times: 8 });
    const before = service.uploads().length;
    const send = startCli([
      'send',
      '--workspace',
      'Plain',
      '--channels',
      'C0GENERAL',
      '--json',
      '--max-wait',
      '2',
      ...files,
    ]);
    await journaled(disk, 8);
    await disk.fill();
    const sent = await send.done;
    const said = new Map(jsonLines(sent.stdout).map((r) => [basename(String(r.file)), r]));
    expect(said.size).toBe(8);
    // Nothing is called failed: a person would send it again.
    expect([...said.values()].filter((r) => r.outcome === 'failed')).toEqual([]);
    expect([...said.values()].some((r) => /the disk is full/.test(String(r.message)))).toBe(true);
    expect(sent.stderr).not.toMatch(/internal error|ENOSPC/);
    expect(sent.code).toBe(1);

    await disk.free();
    const listed = await runCli(['queue', '--json'], { env });
    const items = JSON.parse(listed.stdout) as { name: string; state: string }[];
    for (const [name, line] of said) {
      const state = items.find((i) => i.name === name)?.state;
      // What was said delivered or "may have been delivered" is what a restart finds.
      if (line.outcome === 'delivered') expect(state).toBe('delivered');
      else if (line.outcome === 'unknown') expect(state).toBe('unknown');
      else expect(['queued', 'sending', 'waiting', 'delivered']).toContain(state);
    }
    const run = await runCli(['queue', '--run'], { env });
    expect(run.code).not.toBe(2);
    // Each file reached the service at most once, and all the queued ones went.
    const names = service
      .uploads()
      .slice(before)
      .map((u) => u.name);
    expect(new Set(names).size).toBe(names.length);
    for (const [name, line] of said) {
      if (line.outcome !== 'unknown') expect(names).toContain(name);
    }
  }, 90_000);
});
