// Windows cannot run here: reg.exe is replaced by a small registry that understands exactly
// the argument arrays reg.exe accepts for add/delete/query (and fails on anything else), and
// the .lnk writer by a recorder, as Electron's shell.writeShortcutLink would be passed in.
import { describe, expect, it } from 'vitest';
import { regAddArgs, windowsDirs, windowsEntries } from './explorer-menu';
import { createFileManagerIntegration } from './integration';
import type { CommandResult, IntegrationFs, ShortcutDetails } from './types';

const HOME = 'C:\\Users\\Zoë O’Neil';
const APPDATA = `${HOME}\\AppData\\Roaming`;
const EXE = `${HOME}\\AppData\\Local\\Programs\\Trayshare (beta) & co\\Trayshare.exe`;
const MOVED = 'D:\\Portable Apps\\Träyshare\\Trayshare.exe';
const SEND_TO = `${APPDATA}\\Microsoft\\Windows\\SendTo\\Trayshare.lnk`;
const FILES_KEY = 'HKCU\\Software\\Classes\\*\\shell\\Trayshare';
const FOLDERS_KEY = 'HKCU\\Software\\Classes\\Directory\\shell\\Trayshare';
const REG = 'C:\\Windows\\System32\\reg.exe';

class FakeRegistry {
  readonly calls: string[][] = [];
  /** key (lower case) → value name ('' for the default value) → data */
  readonly keys = new Map<string, Map<string, string>>();
  failAdds = false;

  run = async (file: string, args: readonly string[]): Promise<CommandResult> => {
    // System32's, never a bare reg.exe that Windows would look for in the current folder first
    // (the test's environment names no SystemRoot: C:\Windows).
    expect(file).toBe(REG);
    this.calls.push([...args]);
    const [verb, key, ...rest] = args;
    if (!key?.startsWith('HKCU\\')) throw new Error(`unexpected key ${key}`);
    const id = key.toLowerCase();
    const notFound = {
      code: 1,
      stdout: '',
      stderr: 'ERROR: The system was unable to find the specified registry key or value.',
    };
    if (verb === 'add') {
      const m =
        rest.length === 6 && rest[0] === '/ve'
          ? { name: '', data: rest[4] }
          : rest.length === 7 && rest[0] === '/v'
            ? { name: rest[1], data: rest[5] }
            : null;
      const tail = rest.slice(rest[0] === '/ve' ? 1 : 2);
      if (!m || tail[0] !== '/t' || tail[1] !== 'REG_SZ' || tail[2] !== '/d' || tail[4] !== '/f') {
        throw new Error(`malformed reg add ${JSON.stringify(args)}`);
      }
      if (this.failAdds) return { code: 1, stdout: '', stderr: 'ERROR: Access is denied.' };
      const values = this.keys.get(id) ?? new Map<string, string>();
      values.set(m.name ?? '', m.data ?? '');
      this.keys.set(id, values);
      return { code: 0, stdout: 'The operation completed successfully.', stderr: '' };
    }
    if (verb === 'delete') {
      if (rest.length !== 1 || rest[0] !== '/f') throw new Error(`malformed ${args.join(' ')}`);
      const doomed = [...this.keys.keys()].filter((k) => k === id || k.startsWith(`${id}\\`));
      if (doomed.length === 0) return notFound;
      for (const k of doomed) this.keys.delete(k);
      return { code: 0, stdout: 'The operation completed successfully.', stderr: '' };
    }
    if (verb === 'query') {
      const values = this.keys.get(id);
      if (!values) return notFound;
      const full = key.replace(/^HKCU\\/, 'HKEY_CURRENT_USER\\');
      if (rest.length === 0) return { code: 0, stdout: `\r\n${full}\r\n\r\n`, stderr: '' };
      if (rest.length !== 2 || rest[0] !== '/v') throw new Error(`malformed ${args.join(' ')}`);
      const data = values.get(rest[1] ?? '');
      if (data === undefined) return notFound;
      return {
        code: 0,
        stdout: `\r\n${full}\r\n    ${rest[1]}    REG_SZ    ${data}\r\n\r\n`,
        stderr: '',
      };
    }
    throw new Error(`unexpected reg ${verb}`);
  };

  value(key: string, name = ''): string | undefined {
    return this.keys.get(key.toLowerCase())?.get(name);
  }
}

/** Only the .lnk files: the part of the Windows file system the integration touches. */
function fakeWindowsFs(files: Map<string, ShortcutDetails>): IntegrationFs {
  const missing = () => Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
  const unused = async (): Promise<never> => {
    throw new Error('not used on Windows');
  };
  return {
    stat: async (path) => {
      if (!files.has(path)) throw missing();
      return { mode: 0o666, isFile: () => true };
    },
    rm: async (path) => {
      files.delete(path);
    },
    readFile: unused,
    writeFile: unused,
    rename: unused,
    chmod: unused,
    mkdir: unused,
    rmdir: unused,
    readdir: unused,
  };
}

function setup(
  exe: string,
  registry = new FakeRegistry(),
  lnk = new Map<string, ShortcutDetails>(),
) {
  const written: [string, ShortcutDetails][] = [];
  const integration = createFileManagerIntegration({
    platform: 'win32',
    app: { exe },
    home: HOME,
    env: { APPDATA },
    run: registry.run,
    fs: fakeWindowsFs(lnk),
    writeShortcut: (path, details) => {
      written.push([path, details]);
      lnk.set(path, details);
      return true;
    },
    readShortcut: (path) => {
      const found = lnk.get(path);
      if (!found) throw new Error('cannot read shortcut');
      return found;
    },
  });
  return { integration, registry, lnk, written };
}

describe('Windows entries', () => {
  it('writes each verb with reg.exe argument arrays, the path quoted once in the command', () => {
    const [files] = windowsEntries({ exe: EXE }, windowsDirs(HOME, { APPDATA }));
    if (files?.kind !== 'registry') throw new Error('expected a registry verb first');
    const calls = regAddArgs(files);
    expect(calls.slice(0, 4)).toEqual([
      ['add', FILES_KEY, '/ve', '/t', 'REG_SZ', '/d', 'Share with Trayshare', '/f'],
      ['add', FILES_KEY, '/v', 'Icon', '/t', 'REG_SZ', '/d', `${EXE},0`, '/f'],
      ['add', FILES_KEY, '/v', 'MultiSelectModel', '/t', 'REG_SZ', '/d', 'Player', '/f'],
      ['add', `${FILES_KEY}\\command`, '/ve', '/t', 'REG_SZ', '/d', `"${EXE}" --share "%1"`, '/f'],
    ]);
    expect(calls[4]?.slice(0, 4)).toEqual(['add', FILES_KEY, '/v', 'TrayshareSignature']);
  });

  it('falls back to the profile folder when APPDATA is not set', () => {
    expect(windowsDirs(HOME, {}).appData).toBe(APPDATA);
  });
});

describe('Windows integration', () => {
  it('installs the verbs for files and folders and the Send To shortcut', async () => {
    const { integration, registry, written } = setup(EXE);
    expect((await integration.status()).state).toBe('not-installed');

    const status = await integration.install();

    expect(status.errors).toEqual([]);
    expect(status.state).toBe('installed');
    for (const key of [FILES_KEY, FOLDERS_KEY]) {
      expect(registry.value(`${key}\\command`)).toBe(`"${EXE}" --share "%1"`);
      expect(registry.value(key)).toBe('Share with Trayshare');
    }
    expect(written).toEqual([
      [
        SEND_TO,
        {
          target: EXE,
          args: '--share',
          description: 'Share with Trayshare',
          icon: EXE,
          iconIndex: 0,
        },
      ],
    ]);
    expect(registry.calls.every((args) => args.every((a) => typeof a === 'string'))).toBe(true);
  });

  it('installing twice changes nothing the second time', async () => {
    const { integration, registry, written } = setup(EXE);
    await integration.install();
    const callsAfterFirst = registry.calls.filter(([verb]) => verb !== 'query').length;
    await integration.install();
    expect(registry.calls.filter(([verb]) => verb !== 'query')).toHaveLength(callsAfterFirst);
    expect(written).toHaveLength(1);
  });

  it('repairs every entry after the app moved', async () => {
    const registry = new FakeRegistry();
    const lnk = new Map<string, ShortcutDetails>();
    await setup(EXE, registry, lnk).integration.install();

    const moved = setup(MOVED, registry, lnk);
    const before = await moved.integration.status();
    expect(before.state).toBe('needs-repair');
    expect(before.entries.map((e) => e.state)).toEqual(['stale', 'stale', 'stale']);

    const after = await moved.integration.repair();

    expect(after.state).toBe('installed');
    expect(registry.value(`${FOLDERS_KEY}\\command`)).toBe(`"${MOVED}" --share "%1"`);
    expect(registry.value(FILES_KEY, 'Icon')).toBe(`${MOVED},0`);
    expect(lnk.get(SEND_TO)?.target).toBe(MOVED);
  });

  it('remove deletes its keys and shortcut and leaves other verbs alone', async () => {
    const { integration, registry, lnk } = setup(EXE);
    await registry.run(REG, [
      'add',
      'HKCU\\Software\\Classes\\*\\shell\\OtherApp',
      '/ve',
      '/t',
      'REG_SZ',
      '/d',
      'Other',
      '/f',
    ]);
    const otherLnk = `${APPDATA}\\Microsoft\\Windows\\SendTo\\Mail recipient.lnk`;
    lnk.set(otherLnk, { target: 'C:\\mail.exe' });
    await integration.install();

    const status = await integration.remove();

    expect(status.state).toBe('not-installed');
    expect(status.errors).toEqual([]);
    expect([...registry.keys.keys()]).toEqual(['hkcu\\software\\classes\\*\\shell\\otherapp']);
    expect([...lnk.keys()]).toEqual([otherLnk]);
  });

  it('refuses a path with % for the verbs and says why, still writing Send To', async () => {
    const { integration, registry } = setup('C:\\100% Tools\\Trayshare.exe');
    const status = await integration.install();
    expect(status.state).toBe('partial');
    expect(status.errors.map((e) => e.id)).toEqual([
      'explorer-files-verb',
      'explorer-folders-verb',
    ]);
    expect(status.errors[0]?.message).toMatch(/“%”/);
    expect(registry.keys.size).toBe(0);
    expect(status.entries.find((e) => e.id === 'send-to')?.state).toBe('installed');
  });

  it('reports what reg.exe said when it fails, without throwing', async () => {
    const { integration, registry } = setup(EXE);
    registry.failAdds = true;
    const status = await integration.install();
    expect(status.errors.find((e) => e.id === 'explorer-files-verb')?.message).toMatch(
      /Access is denied/,
    );
    expect(status.state).toBe('partial');
  });

  it('reports a missing shortcut writer as an error for Send To only', async () => {
    const registry = new FakeRegistry();
    const integration = createFileManagerIntegration({
      platform: 'win32',
      app: { exe: EXE },
      home: HOME,
      env: { APPDATA },
      run: registry.run,
      fs: fakeWindowsFs(new Map()),
    });
    const status = await integration.install();
    expect(status.errors.map((e) => e.id)).toEqual(['send-to']);
  });
});
