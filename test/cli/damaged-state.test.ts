// Damaged state met by the CLI (issue 15, item 4): a torn queue journal and a corrupt
// config.json are repaired with a notice said once, and the damaged file is kept beside it.
import { mkdir, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '../reference-service/server';
import { closeAcme, loggedInAcme } from './acme-workspace';
import { runCli } from './run-cli';

let service: ReferenceService;
let dir: string;
let data: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ service, dir, env } = await loggedInAcme('trayshare-damaged-'));
  data = join(dir, 'data');
});

afterAll(() => closeAcme({ service, dir, env }));

describe('damaged state', () => {
  it('a torn queue journal: `queue` says what it repaired once, and keeps the damaged copy', async () => {
    // Three files queued while the queue is paused (as the tray's pause leaves it).
    const state = join(data, 'cli-state');
    await mkdir(state, { recursive: true });
    await writeFile(join(state, 'paused'), '');
    const files = ['a.txt', 'b.txt', 'c.txt'].map((n) => join(dir, n));
    for (const f of files) await writeFile(f, `${f}\n`);
    await runCli(['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', ...files], {
      env,
      timeoutMs: 15_000,
    });
    const journal = join(state, 'queue', 'queue.jsonl');
    const text = await readFile(journal, 'utf8');
    expect(text.split('\n').filter(Boolean)).toHaveLength(3);
    // Cut in the middle of the last record, as a crash or a full disk would.
    await truncate(journal, text.lastIndexOf('c.txt'));

    const first = await runCli(['queue'], { env });
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(
      /journal .*queue\.jsonl was damaged \(1 record could not be read\)/,
    );
    expect(first.stderr).toMatch(/a copy of the damaged file is kept at /);
    expect(first.stdout).toMatch(/a\.txt/);
    expect(first.stdout).toMatch(/b\.txt/);
    const kept = (await readdir(join(state, 'queue'))).filter((n) => n.includes('.damaged-'));
    expect(kept).toHaveLength(1);
    expect(await readFile(join(state, 'queue', kept[0] as string), 'utf8')).toBe(
      text.slice(0, text.lastIndexOf('c.txt')),
    );

    const second = await runCli(['queue'], { env });
    expect(second.stderr).not.toMatch(/damaged/);
    await rm(join(state, 'paused'));
    await runCli(['queue', '--clear'], { env });
  }, 60_000);

  it('a corrupt config.json met first by `history`: says so once, keeps it aside', async () => {
    const config = join(data, 'config.json');
    const good = await readFile(config, 'utf8');
    await writeFile(config, `${good.slice(0, 40)}\u0000garbage`);
    const first = await runCli(['history'], { env });
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(
      /settings file could not be used[\s\S]*kept as [\s\S]*config\.json\.damaged-/,
    );
    const aside = (await readdir(data)).filter((n) => n.startsWith('config.json.damaged-'));
    expect(aside).toHaveLength(1);
    const second = await runCli(['history'], { env });
    expect(second.stderr).not.toMatch(/settings file/);
    // Put the workspace back for the other tests' logout.
    await writeFile(config, good);
  });

  it('a corrupt config.json with uploads queued: they wait for their workspace, not fail as removed', async () => {
    const state = join(data, 'cli-state');
    await mkdir(state, { recursive: true });
    await writeFile(join(state, 'paused'), '');
    const file = join(dir, 'kept.txt');
    await writeFile(file, 'kept\n');
    await runCli(['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', file], {
      env,
      timeoutMs: 15_000,
    });
    await rm(join(state, 'paused'));
    const config = join(data, 'config.json');
    const good = await readFile(config, 'utf8');
    await writeFile(config, `${good.slice(0, 40)}\u0000garbage`);
    const before = service.uploads().length;

    const run = await runCli(['queue', '--run'], { env });
    expect(run.stderr).toMatch(/settings file could not be used/);
    expect(run.stdout).toMatch(
      /\twaiting\tkept\.txt\t.*workspace of this upload was in a settings file that was damaged and set aside as .*config\.json\.damaged-/,
    );
    expect(run.stdout).not.toMatch(/removed/);
    expect(run.code).toBe(1);
    expect(service.uploads().length).toBe(before);

    // The workspace put back, the upload goes.
    await writeFile(config, good);
    const again = await runCli(['queue', '--run'], { env });
    expect(again.stdout).toMatch(/\tdelivered\tkept\.txt\t/);
    expect(again.code).toBe(0);
    // (The first test's files, left queued, went too: they had waited in the same way.)
    const sent = service
      .uploads()
      .slice(before)
      .map((u) => u.name);
    expect(sent.filter((n) => n === 'kept.txt')).toHaveLength(1);
    await runCli(['queue', '--clear'], { env });
  }, 60_000);
});
