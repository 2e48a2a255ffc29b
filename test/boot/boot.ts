// Boots the built main process (out/main/index.js) under plain Node with the recording
// Electron fake (register.mjs, electron-fake.mjs) and returns what it did: a journal of every
// Electron call, whether `ready` had fired, and whether the paths it handed over exist.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const register = fileURLToPath(new URL('./register.mjs', import.meta.url));

interface JournalEntry {
  call: string;
  args: unknown[];
  beforeReady: boolean;
  path?: string;
  exists?: boolean;
}

export interface Boot {
  /** Booted as an installed package (true) or as `npm start` from a checkout. */
  packaged: boolean;
  code: number;
  stdout: string;
  stderr: string;
  journal: JournalEntry[];
  calls(name: string): JournalEntry[];
  /** The files the app wrote in the fake's app.getPath('logs'), by name. */
  logs: Map<string, string>;
}

export async function bootMain(opts: {
  /** The app folder: the checkout, or an app unpacked from a package. */
  appPath: string;
  /** More environment for the booted process (e.g. APPIMAGE, as an AppImage's runtime sets it). */
  env?: Record<string, string>;
  platform: NodeJS.Platform;
  packaged: boolean;
  resourcesPath?: string;
  /** Arguments after the app, as the OS would pass them (a file to share, a set-up link). */
  args?: string[];
}): Promise<Boot> {
  const work = await mkdtemp(join(tmpdir(), 'trayshare-boot-'));
  const journalFile = join(work, 'journal.jsonl');
  try {
    let code = 0;
    let stdout = '';
    let stderr = '';
    try {
      ({ stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ['--import', register, join(opts.appPath, 'out', 'main', 'index.js'), ...(opts.args ?? [])],
        {
          cwd: work,
          timeout: 30_000,
          env: {
            ...process.env,
            HOME: join(work, 'home'),
            TRAYSHARE_BOOT_PLATFORM: opts.platform,
            TRAYSHARE_BOOT_PACKAGED: opts.packaged ? '1' : '0',
            TRAYSHARE_BOOT_APP_PATH: opts.appPath,
            TRAYSHARE_BOOT_DATA: join(work, 'data'),
            TRAYSHARE_BOOT_JOURNAL: journalFile,
            ...(opts.resourcesPath ? { TRAYSHARE_BOOT_RESOURCES: opts.resourcesPath } : {}),
            ...opts.env,
          },
        },
      ));
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      code = typeof e.code === 'number' ? e.code : 1;
      stdout = e.stdout ?? '';
      stderr = e.stderr ?? String(error);
    }
    const text = await readFile(journalFile, 'utf8').catch(() => '');
    const journal = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as JournalEntry);
    const logsDir = join(work, 'data', 'logs');
    const logs = new Map<string, string>();
    for (const name of await readdir(logsDir).catch(() => [])) {
      logs.set(name, await readFile(join(logsDir, name), 'utf8'));
    }
    return {
      logs,
      packaged: opts.packaged,
      code,
      stdout,
      stderr,
      journal,
      calls: (name) => journal.filter((e) => e.call === name),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** What may run before `ready`: lifecycle wiring, the lock and the app's identity. */
export const BEFORE_READY_ALLOWED = new Set([
  'app.on',
  'app.once',
  'app.whenReady',
  'app.requestSingleInstanceLock',
  'app.setAppUserModelId',
  'app.setName',
  'app.getPath',
  'app.setPath',
  'app.commandLine.hasSwitch',
  'app.commandLine.appendSwitch',
]);
