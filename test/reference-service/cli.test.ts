import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, response, send, upload } from './raw-client';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const cliPath = 'test/reference-service/cli.ts';

let dir: string;
let children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-service-cli-'));
});

afterEach(async () => {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = once(child, 'exit');
    // Detached: npx, its shell and the node it starts share one process group of their own.
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
  }
  children = [];
  await rm(dir, { recursive: true, force: true });
});

function startCli(command: string, args: string[]): ChildProcess {
  const child = spawn(command, args, {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  children.push(child);
  return child;
}

/** The first line the process prints on stdout. */
function firstLine(proc: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const end = seen.indexOf('\n');
      if (end >= 0) {
        proc.stdout?.off('data', onData);
        resolve(seen.slice(0, end));
      }
    };
    proc.stdout?.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`exited with ${code} before printing a line`)));
  });
}

function collect(stream: NodeJS.ReadableStream | null | undefined): () => string {
  let text = '';
  stream?.on('data', (c: Buffer) => {
    text += c.toString('utf8');
  });
  return () => text;
}

describe('npm run service (test/reference-service/cli.ts)', () => {
  it('prints where it listens first, then serves with the config file applied', async () => {
    const config = join(dir, 'service.json');
    await writeFile(
      config,
      JSON.stringify({
        tokens: { 'xoxb-cli': { user: 'U0CLI', channels: ['C0CLI'] } },
        channels: ['C0CLI', 'C0OTHER'],
        uploadsPerMinute: 1,
      }),
    );
    const data = join(dir, 'data');
    const proc = startCli('npx', [
      'tsx',
      cliPath,
      '--port',
      '0',
      '--data',
      data,
      '--config',
      config,
    ]);
    const line = await firstLine(proc);
    expect(line).toMatch(/^listening http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.slice('listening '.length);
    expect(Number(new URL(url).port)).toBeGreaterThan(0);

    const content = Buffer.from('from the CLI test\n');
    const accepted = json(
      await upload(url, {
        token: 'xoxb-cli',
        channels: 'C0CLI',
        comment: 'cli',
        file: { name: 'c.txt', content },
      }),
    );
    expect(accepted.ok).toBe(true);
    const id = String((accepted.file as { id: string }).id);
    const arrived = JSON.parse(
      response(await send(`${url}/_test/uploads`, { method: 'GET' })).text,
    );
    expect(arrived).toMatchObject([
      { id, name: 'c.txt', size: content.length, channels: ['C0CLI'], user: 'U0CLI' },
    ]);
    expect(await readFile(join(data, 'files', id))).toEqual(content);

    // uploadsPerMinute 1 from the file; the tokens of the file replace the test tokens.
    const limited = response(await upload(url, { token: 'xoxb-cli', channels: 'C0CLI' }));
    expect([limited.status, limited.headers['retry-after']]).toEqual([429, '60']);
    expect(json(await upload(url, { channels: 'C0CLI' })).error).toBe('invalid_auth');
  });

  it('closes cleanly on SIGTERM and SIGINT', async () => {
    const stopWith = async (signal: NodeJS.Signals) => {
      const proc = startCli(process.execPath, ['--import', 'tsx', cliPath, '--port', '0']);
      const url = (await firstLine(proc)).slice('listening '.length);
      expect(json(await upload(url, { channels: 'C0GENERAL' })).ok).toBe(true);
      const exited = once(proc, 'exit');
      proc.kill(signal);
      expect(await exited).toEqual([0, null]);
      const after = await send(`${url}/_test/uploads`, { method: 'GET' });
      expect(after).toMatchObject({ kind: 'error', code: 'ECONNREFUSED' });
    };
    await Promise.all([stopWith('SIGTERM'), stopWith('SIGINT')]);
  });

  it('refuses a config file with an unknown field, naming it', async () => {
    const config = join(dir, 'bad.json');
    await writeFile(config, JSON.stringify({ maxFileByte: 10 }));
    const proc = startCli(process.execPath, ['--import', 'tsx', cliPath, '--config', config]);
    const stderr = collect(proc.stderr);
    const [code] = await once(proc, 'exit');
    expect(code).toBe(2);
    expect(stderr()).toContain('maxFileByte');
  });
});
