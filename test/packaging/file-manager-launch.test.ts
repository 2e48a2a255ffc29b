// The generated file-manager entries, started by the programs that read them: GLib's
// `gio launch` (what Files, Nemo and other GTK file managers use) for the Open With entry and
// Dolphin's Exec line, /bin/sh for the Nautilus script as Files runs it, and Thunar's own
// substitution rules (thunar-uca-model.c) for its action. The "app" is a script, installed
// under a folder whose name holds spaces, quotes, $, a backslash and non-ASCII letters, that
// records the arguments it got.
import { execFile, execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFileManagerIntegration } from '../../main/core/integration/integration';
import type { IntegrationStatus } from '../../main/core/integration/types';

const run = promisify(execFile);

// posix-only: called from the set-up below, which returns at once off Linux.
function requireTool(tool: string, debianPackage: string): void {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
  } catch {
    throw new Error(
      `${tool} is missing: install the Debian package ${debianPackage} (npm run setup does).`,
    );
  }
}

let base: string;
let home: string;
let log: string;
let shared: string[];

/** Writes the recording fake app into `dir` and installs the integration for it in `home`. */
async function installFakeApp(dir: string, homeDir: string): Promise<IntegrationStatus> {
  await mkdir(dir, { recursive: true });
  await mkdir(join(homeDir, '.local', 'share'), { recursive: true });
  await mkdir(join(homeDir, '.config'), { recursive: true });
  const exe = join(dir, 'trayshare');
  // Written to a temporary name first so the test never reads half a log.
  await writeFile(
    exe,
    '#!/bin/sh\nprintf \'%s\\0\' "$@" > "$ARGV_LOG.tmp" && mv "$ARGV_LOG.tmp" "$ARGV_LOG"\n',
  );
  await chmod(exe, 0o755);
  return createFileManagerIntegration({
    platform: 'linux',
    app: { exe },
    home: homeDir,
    env: {},
  }).install();
}

// gio, desktop-file-validate and the file managers these entries are for exist on Linux only
// (macOS and Windows entries are checked in main/core/integration): elsewhere every suite here
// is skipped, with that reason in its name, and the set-up does nothing.
const linux = process.platform === 'linux';
const offLinux = ' (skipped off Linux: gio and these desktops are Linux-only)';

beforeAll(async () => {
  if (!linux) return;
  requireTool('gio', 'libglib2.0-bin');
  requireTool('desktop-file-validate', 'desktop-file-utils');
  requireTool('python3', 'python3');

  base = await mkdtemp(join(tmpdir(), 'trayshare-launch-'));
  home = join(base, 'home');
  log = join(base, 'argv.log');
  const status = await installFakeApp(
    join(base, `Tray "share" $HOME 'x' back\\slash büro 日本`),
    home,
  );
  expect(status.errors).toEqual([]);

  const files = join(base, 'files to share');
  await mkdir(join(files, 'Folder with spaces'), { recursive: true });
  shared = [
    join(files, 'report final.pdf'),
    join(files, `it's "quoted" $PATH.txt`),
    join(files, 'star*and?glob[1].txt'),
    join(files, 'back\\slash ünïcødé 日本語.txt'),
    join(files, 'Folder with spaces'),
  ];
  for (const file of shared.slice(0, -1)) await writeFile(file, 'x');
});

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

beforeEach(async () => {
  if (log) await rm(log, { force: true });
});

const env = () => ({ ...process.env, ARGV_LOG: log, HOME: home });

/** The arguments the fake app received, once it has run. */
async function receivedArgs(): Promise<string[]> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    try {
      await stat(log);
      const text = await readFile(log, 'utf8');
      return text.split('\0').slice(0, -1);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  throw new Error('the app was not started');
}

const dataFile = (...parts: string[]) => join(home, '.local', 'share', ...parts);

const launches = 'file-manager entries start the app with --share and the exact paths';
describe.skipIf(!linux)(`${launches}${offLinux}`, () => {
  it('Open With entry: valid, and GLib starts it with every selected path', async () => {
    const entry = dataFile('applications', 'trayshare-share.desktop');
    await run('desktop-file-validate', [entry]);

    await run('gio', ['launch', entry, ...shared], { env: env() });

    expect(await receivedArgs()).toEqual(['--share', ...shared]);
  });

  it('Dolphin service menu: its Exec line starts the app with every selected path', async () => {
    const menu = await readFile(dataFile('kio', 'servicemenus', 'trayshare.desktop'), 'utf8');
    const action = menu.slice(menu.indexOf('[Desktop Action shareWithTrayshare]'));
    const execLine = /^Exec=.*$/m.exec(action)?.[0];
    expect(execLine).toBeDefined();
    const probe = join(base, 'dolphin-exec.desktop');
    await writeFile(probe, `[Desktop Entry]\nType=Application\nName=Probe\n${execLine}\n`);

    await run('gio', ['launch', probe, ...shared], { env: env() });

    expect(await receivedArgs()).toEqual(['--share', ...shared]);
  });

  it('Nautilus script: reads the newline-separated selection as Files passes it', async () => {
    const script = dataFile('nautilus', 'scripts', 'Share with Trayshare');
    await run(script, [], {
      env: { ...env(), NAUTILUS_SCRIPT_SELECTED_FILE_PATHS: `${shared.join('\n')}\n` },
      cwd: base,
    });
    expect(await receivedArgs()).toEqual(['--share', ...shared]);
  });

  it('Nautilus script: does not start the app when nothing local is selected', async () => {
    const script = dataFile('nautilus', 'scripts', 'Share with Trayshare');
    await run(script, [], { env: { ...env(), NAUTILUS_SCRIPT_SELECTED_FILE_PATHS: '' } });
    await expect(stat(log)).rejects.toThrow();
  });

  it('Thunar action: well-formed XML, and the command Thunar builds starts the app', async () => {
    await runThunarAction(home);
    expect(await receivedArgs()).toEqual(['--share', ...shared]);
  });
});

describe.skipIf(!linux)(`an app whose path holds %${offLinux}`, () => {
  let percentHome: string;

  beforeAll(async () => {
    percentHome = join(base, 'percent home');
    const status = await installFakeApp(join(base, '100% sure %F %%'), percentHome);
    expect(status.errors).toEqual([]);
  });

  it('is started by the Open With entry, through env (GLib refuses a program written with %%)', async () => {
    const entry = join(percentHome, '.local', 'share', 'applications', 'trayshare-share.desktop');
    await run('desktop-file-validate', [entry]);
    await run('gio', ['launch', entry, ...shared], { env: env() });
    expect(await receivedArgs()).toEqual(['--share', ...shared]);
  });

  it('is started by the Nautilus script', async () => {
    const script = join(
      percentHome,
      '.local',
      'share',
      'nautilus',
      'scripts',
      'Share with Trayshare',
    );
    await run(script, [], {
      env: { ...env(), NAUTILUS_SCRIPT_SELECTED_FILE_PATHS: shared.join('\n') },
    });
    expect(await receivedArgs()).toEqual(['--share', ...shared]);
  });

  it('is started by the Thunar action', async () => {
    await runThunarAction(percentHome);
    expect(await receivedArgs()).toEqual(['--share', ...shared]);
  });
});

/** Runs Trayshare's action from uca.xml the way Thunar does (thunar-uca-model.c). */
// posix-only: called from the Linux-only suites above (Thunar, python3, /bin/sh).
async function runThunarAction(homeDir: string): Promise<void> {
  const uca = join(homeDir, '.config', 'Thunar', 'uca.xml');
  const parsed = execFileSync(
    'python3',
    [
      '-c',
      [
        'import json, sys, xml.etree.ElementTree as ET',
        'root = ET.parse(sys.argv[1]).getroot()',
        'print(json.dumps([{c.tag: (c.text or "") for c in a} for a in root.findall("action")]))',
      ].join('\n'),
      uca,
    ],
    { encoding: 'utf8' },
  );
  const actions = JSON.parse(parsed) as Record<string, string>[];
  const ours = actions.find((a) => a['unique-id'] === 'trayshare-share-with-trayshare');
  expect(ours?.name).toBe('Share with Trayshare');
  expect(ours).toHaveProperty('directories');
  // %F → each path g_shell_quote'd and space-separated, %% → %, then /bin/sh -c.
  const gShellQuote = (s: string) => `'${s.split("'").join("'\\''")}'`;
  const line = (ours?.command ?? '').replace(/%([%F])/g, (_, code: string) =>
    code === '%' ? '%' : shared.map(gShellQuote).join(' '),
  );
  await run('/bin/sh', ['-c', line], { env: env() });
}
