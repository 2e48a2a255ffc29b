// `send -` (issue 15, item 6): standard input is capped at the workspace's largest file, the
// copy in the temp folder is always removed, and a bad --filename is a usage error (exit 2).
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { CLI, type CliRun, runCli } from './run-cli';

const TOKEN = 'xoxb-test-token';
const MAX = 1024 * 1024;
let service: ReferenceService;
let dir: string;
let temp: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-stdin-test-'));
  temp = join(dir, 'tmp');
  await mkdir(temp);
  service = await startReferenceService({ dataDir: join(dir, 'service') });
  // TMPDIR is where the CLI puts its copy of standard input: a private one shows what it leaves.
  env = { TRAYSHARE_DATA_DIR: join(dir, 'data'), TMPDIR: temp };
  const login = await runCli(['login', '--workspace', 'Small', '--base-url', service.url], {
    env,
    input: `${TOKEN}\n`,
  });
  expect(login.code).toBe(0);
  // This workspace takes files up to 1 MiB (as set in Settings).
  const configPath = join(dir, 'data', 'config.json');
  const config = JSON.parse(await readFile(configPath, 'utf8'));
  config.workspaces[0].maxFileBytes = MAX;
  await writeFile(configPath, JSON.stringify(config));
});

afterAll(async () => {
  await runCli(['logout', '--workspace', 'Small'], { env });
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

/** The CLI with /dev/zero, an endless input, as its standard input. */
function sendFromDevZero(args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, TRAYSHARE_TOKEN: '', ...env },
      stdio: [openSync('/dev/zero', 'r'), 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const send = ['send', '--workspace', 'Small', '--channels', 'C0GENERAL'];

describe('send - (standard input)', () => {
  it.skipIf(process.platform === 'win32')(
    'an endless input stops at the workspace’s largest file, sends nothing, leaves no copy',
    async () => {
      const before = service.uploads().length;
      const run = await sendFromDevZero([...send, '--filename', 'zeros.bin', '-']);
      expect(run.stderr).toMatch(
        /Standard input is larger than 1\.0 MB, the largest file Small takes/,
      );
      expect(run.code).toBe(1);
      expect(service.uploads().length).toBe(before);
      expect(await readdir(temp)).toEqual([]);
    },
  );

  it('an input within the limit is delivered with its bytes, and the copy is removed', async () => {
    const bytes = Buffer.alloc(200_000, 'x');
    const run = await runCli([...send, '--filename', 'log.txt', '--json', '-'], {
      env,
      input: bytes,
    });
    expect(run.code).toBe(0);
    expect(service.uploads().at(-1)).toMatchObject({ name: 'log.txt', size: bytes.length });
    expect(await readdir(temp)).toEqual([]);
  });

  it.each([
    ['over-long', 'n'.repeat(300), /too long \(300 bytes/],
    ['a path', '../escape.txt', /a file name, not a path/],
    ['a control character', 'a\u001b[2Jb.txt', /control characters/],
  ])(
    'a --filename that is %s is a usage error (exit 2) and leaves nothing',
    async (_, name, why) => {
      const run = await runCli([...send, '--filename', name, '-'], { env, input: 'data' });
      expect(run.stderr).toMatch(why);
      expect(run.code).toBe(2);
      expect(await readdir(temp)).toEqual([]);
    },
  );
});
