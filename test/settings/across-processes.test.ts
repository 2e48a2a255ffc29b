// Processes changing the settings at the same moment lose nothing (run under
// build/scripts/with-keyring.mjs: each process opens the real keychain, as the CLI does). The app
// and any number of CLI runs share config.json; each change reads, changes and writes it holding
// the file's lock (main/core/settings/settings-lock.ts). Without it, a process that read the file
// before another's write wrote its own copy after it: presets went missing, a removed workspace
// came back, a changed address was undone. The processes are real (settings-driver.ts), told to
// start together once all of them are ready.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Fixture, keptFiles, savedPresets, savedWorkspaces, settingsFixture } from './helpers';

const DRIVER = resolve('test/settings/settings-driver.ts');
const COUNT = 30;
/**
 * Workspaces removed, and workspaces moved, while another process adds presets as fast as it
 * can (each of these changes first waits for the keychain; the presets stop when they are done,
 * or at MAX_PRESETS).
 */
const MOVES = 5;
const MAX_PRESETS = 300;

let fx: Fixture;
const children = new Set<ChildProcess>();
beforeEach(async () => {
  fx = await settingsFixture();
});
afterEach(async () => {
  for (const child of children) child.kill();
  children.clear();
  await fx.cleanup();
});

interface Outcome {
  ok: boolean;
  changes?: number;
  error?: string;
}

interface Racer {
  ready: Promise<void>;
  go(): void;
  /** Asks a presets racer to end after its current change. */
  stop(): void;
  result: Promise<Outcome>;
}

/** A driver process on this test's folder and keychain service. */
function racer(...args: string[]): Racer {
  const child = spawn(process.execPath, ['--import', 'tsx', DRIVER, fx.dir, fx.service, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.add(child);
  let out = '';
  let isReady: () => void = () => {};
  const ready = new Promise<void>((r) => {
    isReady = r;
  });
  const result = new Promise<Outcome>((done, reject) => {
    child.stdout?.on('data', (d) => {
      out += d;
      if (out.startsWith('ready\n')) isReady();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      children.delete(child);
      isReady();
      const last = out.trim().split('\n').pop() ?? '';
      done(last.startsWith('{') ? JSON.parse(last) : { ok: false, error: `exit ${code}: ${out}` });
    });
  });
  const send = (line: string) => {
    if (child.stdin?.writable) child.stdin.write(`${line}\n`);
  };
  return { ready, go: () => send('go'), stop: () => send('stop'), result };
}

/** Starts the racers' changes together, once every one has opened the settings. */
async function race(racers: Racer[]): Promise<void> {
  await Promise.all(racers.map((r) => r.ready));
  for (const r of racers) r.go();
}

it(`two processes adding ${COUNT} presets each at once: all ${2 * COUNT} are kept`, async () => {
  const settings = fx.open();
  const w = await settings.addWorkspace({ name: 'Acme', baseUrl: 'https://acme.example' });
  const racers = [
    racer('presets', 'a', w.id, String(COUNT)),
    racer('presets', 'b', w.id, String(COUNT)),
  ];
  await race(racers);
  expect(await Promise.all(racers.map((r) => r.result))).toEqual([
    { ok: true, changes: COUNT },
    { ok: true, changes: COUNT },
  ]);
  const names = (await savedPresets(fx.open())).map((p) => p.name);
  const expected = ['a', 'b'].flatMap((prefix) =>
    Array.from({ length: COUNT }, (_, i) => `${prefix}-${i + 1}`),
  );
  expect(names.sort()).toEqual(expected.sort());
}, 120_000);

it('a removed workspace stays removed and a changed address stays changed while another process adds presets', async () => {
  const settings = fx.open();
  const keep = await settings.addWorkspace({ name: 'Acme', baseUrl: 'https://acme.example' });
  for (let i = 1; i <= MOVES; i++) {
    await settings.addWorkspace({ name: `gone-${i}`, baseUrl: `https://gone-${i}.example` });
    await settings.addWorkspace({ name: `move-${i}`, baseUrl: `https://move-${i}.example` });
  }
  // The presets keep coming for as long as the workspaces change (removing a workspace and
  // moving one each wait for the keychain), so every one of those changes meets one of theirs.
  const presets = racer('presets', 'a', keep.id, String(MAX_PRESETS));
  const changes = racer('workspaces', String(MOVES));
  await race([presets, changes]);
  expect(await changes.result).toEqual({ ok: true, changes: 2 * MOVES });
  presets.stop();
  const added = await presets.result;
  expect(added).toMatchObject({ ok: true });
  const after = fx.open();
  const workspaces = await savedWorkspaces(after);
  expect(workspaces.map((w) => `${w.name} ${w.baseUrl}`).sort()).toEqual(
    [
      'Acme https://acme.example',
      ...Array.from({ length: MOVES }, (_, i) => `move-${i + 1} https://moved-${i + 1}.example`),
    ].sort(),
  );
  expect((await savedPresets(after)).map((p) => p.name).sort()).toEqual(
    Array.from({ length: added.changes ?? 0 }, (_, i) => `a-${i + 1}`).sort(),
  );
}, 120_000);

it('three processes finding the same broken file at once: it is set aside once, and nobody sets aside a repair', async () => {
  const settings = fx.open();
  await settings.addWorkspace({ name: 'Acme', baseUrl: 'https://acme.example' });
  // Acme is valid; the second workspace is not, so the file is repaired, keeping Acme.
  const saved = JSON.parse(await fx.configText());
  saved.workspaces.push({ id: 'broken', name: 42 });
  const broken = JSON.stringify(saved);
  await writeFile(join(fx.dir, 'config.json'), broken);
  const readers = [racer('read'), racer('read'), racer('read')];
  await race(readers);
  expect(await Promise.all(readers.map((r) => r.result))).toEqual(
    readers.map(() => ({ ok: true, changes: 0 })),
  );
  const kept = await keptFiles(fx.dir);
  expect(kept).toHaveLength(1);
  expect(await readFile(join(fx.dir, kept[0]!), 'utf8')).toBe(broken);
  expect((await savedWorkspaces(fx.open())).map((w) => w.name)).toEqual(['Acme']);
}, 120_000);
