// npm test's checks run side by side: every one runs to its end, each one's output comes whole,
// and one failure fails the whole with its name.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = resolve('build/scripts/run-side-by-side.mjs');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-side-by-side-'));
  // Two lines apart in time, so output that was not kept whole would show interleaved.
  const twoLines = (word: string, exit: number) =>
    `node -e "console.log('${word} 1'); setTimeout(() => { console.error('${word} 2'); process.exit(${exit}); }, 300)"`;
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'side-by-side',
      private: true,
      scripts: {
        first: twoLines('first', 0),
        second: twoLines('second', 0),
        bad: twoLines('bad', 3),
      },
    }),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function run(args: string[]): { code: number | null; stdout: string; stderr: string } {
  // Without npm_execpath the script finds npm on PATH, as when it is started by hand.
  const env = { ...process.env, npm_execpath: '' };
  const child = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: dir, env, encoding: 'utf8' });
  if (child.error) throw child.error;
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe('run-side-by-side', () => {
  it('runs every script, prints each one whole, and exits 0 when all pass', async () => {
    const result = run(['first', 'second']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/> first: passed in [\d.]+ s\nfirst 1\nfirst 2\n/);
    expect(result.stdout).toMatch(/> second: passed in [\d.]+ s\nsecond 1\nsecond 2\n/);
  }, 60_000);

  it('still runs the others when one fails, and names the one that failed', async () => {
    const result = run(['bad', 'first']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/> bad: FAILED \(exit 3\) in [\d.]+ s\nbad 1\nbad 2\n/);
    expect(result.stdout).toMatch(/> first: passed in [\d.]+ s\nfirst 1\nfirst 2\n/);
    expect(result.stderr).toContain('failed: bad\n');
  }, 60_000);
});
