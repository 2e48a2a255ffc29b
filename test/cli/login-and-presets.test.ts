// login → presets add → send --preset with no token in the environment: the token travels from
// standard input to the keychain and from the keychain to the Authorization header, nowhere else.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { filesUnder, jsonLines, runCli } from './run-cli';

const TOKEN = 'xoxb-test-token';
let service: ReferenceService;
let dir: string;
let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-login-'));
  dataDir = join(dir, 'data');
  service = await startReferenceService({ dataDir: join(dir, 'service') });
  env = { TRAYSHARE_DATA_DIR: dataDir };
});

afterAll(async () => {
  await runCli(['logout', '--workspace', 'Acme'], { env });
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

describe('login, presets and send --preset', () => {
  it('refuses a webhook URL as the token and saves nothing', async () => {
    const run = await runCli(['login', '--workspace', 'Hooks', '--base-url', service.url], {
      env,
      input: 'https://hooks.slack.com/services/T1/B2/abc\n',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/That is a URL, not a token/);
    const list = await runCli(['workspaces', '--json'], { env });
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('logs in, adds a preset, and delivers with the token from the keychain only', async () => {
    const login = await runCli(['login', '--workspace', 'Acme', '--base-url', service.url], {
      env,
      input: `${TOKEN}\n`,
    });
    expect(login.stderr).toMatch(/Saved Acme/);
    expect(login.code).toBe(0);

    const add = await runCli(
      [
        'presets',
        'add',
        'Design review',
        '--workspace',
        'acme',
        '--channels',
        'C0DESIGN,C0GENERAL',
        '--comment',
        'For Thursday',
        '--default',
      ],
      { env },
    );
    expect(add.code).toBe(0);

    const file = join(dir, 'mock-up.png');
    const bytes = Buffer.alloc(50_000, 7);
    await writeFile(file, bytes);
    const send = await runCli(['send', '--preset', 'design review', '--json', file], { env });
    expect(send.stderr).toBe('');
    expect(send.code).toBe(0);
    expect(jsonLines(send.stdout)[0]).toMatchObject({ file, outcome: 'delivered' });
    expect(service.uploads().at(-1)).toMatchObject({
      name: 'mock-up.png',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      channels: ['C0DESIGN', 'C0GENERAL'],
      initial_comment: 'For Thursday',
      user: 'U0TEST',
    });

    // The token is in no file under the settings folder (settings, journal, history).
    const files = await filesUnder(dataDir);
    expect(files.some((f) => f.endsWith('config.json'))).toBe(true);
    for (const f of files) {
      expect((await readFile(f)).includes(TOKEN), f).toBe(false);
    }
    for (const output of [login, add, send]) {
      expect(output.stdout + output.stderr).not.toContain(TOKEN);
    }

    const history = await runCli(['history', '--json'], { env });
    expect(JSON.parse(history.stdout)[0]).toMatchObject({
      name: 'mock-up.png',
      outcome: 'delivered',
      channels: ['C0DESIGN', 'C0GENERAL'],
    });
  });

  it('after logout the preset is refused with a plain message, before any upload', async () => {
    await runCli(['login', '--workspace', 'Other', '--base-url', service.url], {
      env,
      input: 'xoxb-other-token\n',
    });
    await runCli(['presets', 'add', 'Random', '--workspace', 'Other', '--channels', 'C0RANDOM'], {
      env,
    });
    const out = await runCli(['logout', '--workspace', 'Other'], { env });
    expect(out.code).toBe(0);
    const before = service.uploads().length;
    const file = join(dir, 'a.txt');
    await writeFile(file, 'a');
    const send = await runCli(['send', '--preset', 'Random', file], { env });
    expect(send.code).not.toBe(0);
    expect(send.stderr).toMatch(/Other: No token/);
    // The command line's way out, not the app's Settings.
    expect(send.stderr).toContain('Save one with `trayshare login`.');
    expect(send.stderr).not.toContain('Settings');
    expect(service.uploads().length).toBe(before);
  });

  it('keeps working with a corrupt settings file, keeping the bad file and saying so', async () => {
    const corruptDir = join(dir, 'corrupt');
    const cenv = { TRAYSHARE_DATA_DIR: corruptDir };
    await runCli(['workspaces'], { env: cenv });
    await writeFile(join(corruptDir, 'config.json'), '{"version": 2, "workspaces": [{"id": ');
    const run = await runCli(['workspaces'], { env: cenv });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/config\.json\.damaged-/);
    const kept = (await readdir(corruptDir)).filter((f) => f.startsWith('config.json.damaged-'));
    expect(kept).toHaveLength(1);
    expect(await readFile(join(corruptDir, kept[0] as string), 'utf8')).toBe(
      '{"version": 2, "workspaces": [{"id": ',
    );
    expect((await stat(join(corruptDir, 'config.json'))).isFile()).toBe(true);
  });
});
