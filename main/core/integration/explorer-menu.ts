// "Share with Trayshare" in Explorer, per user: a shell verb for files and one for folders
// under HKCU\Software\Classes (no admin rights), written with reg.exe from argument arrays,
// and a Send To shortcut. Explorer starts one process per selected item for a verb (the shell
// batches them into one share); Send To passes the whole selection to one process.
import { createHash } from 'node:crypto';
import { win32 } from 'node:path';
import type { AppPaths, RegistryValue, RegistryVerbEntry, ShortcutEntry } from './types';

export interface WindowsDirs {
  /** %APPDATA% (the roaming profile folder). */
  appData: string;
}

export function windowsDirs(home: string, env: NodeJS.ProcessEnv): WindowsDirs {
  return { appData: env.APPDATA || win32.join(home, 'AppData', 'Roaming') };
}

const VERB_LABEL = 'Share with Trayshare';
/** Value beside the verb's own values holding their hash (see RegistryVerbEntry.signature). */
export const SIGNATURE_VALUE = 'TrayshareSignature';

const verbKey = (classKey: string) => `HKCU\\Software\\Classes\\${classKey}\\shell\\Trayshare`;

const signatureOf = (keys: RegistryVerbEntry['keys']) =>
  createHash('sha256').update(JSON.stringify(keys)).digest('hex');

function verb(
  app: AppPaths,
  id: 'explorer-files-verb' | 'explorer-folders-verb',
  classKey: string,
): RegistryVerbEntry {
  const key = verbKey(classKey);
  const keys = [
    {
      key,
      values: [
        { name: null, data: VERB_LABEL },
        { name: 'Icon', data: `${app.exe},0` },
        // Shown for selections of any size; the default hides verbs beyond 15 items.
        { name: 'MultiSelectModel', data: 'Player' },
      ],
    },
    { key: `${key}\\command`, values: [{ name: null, data: `"${app.exe}" --share "%1"` }] },
  ];
  return {
    kind: 'registry',
    id,
    // Explorer expands %1, %V… in commands, with no way to escape a literal %.
    ...(app.exe.includes('%')
      ? {
          problem: `Trayshare's path holds “%”, which Explorer reads as a placeholder: move Trayshare to a folder without “%” in its name.`,
        }
      : {}),
    label:
      id === 'explorer-files-verb'
        ? 'Explorer: context menu of files'
        : 'Explorer: context menu of folders',
    key,
    keys,
    signature: signatureOf(keys),
  };
}

function sendToShortcut(app: AppPaths, dirs: WindowsDirs): ShortcutEntry {
  return {
    kind: 'shortcut',
    id: 'send-to',
    label: 'Explorer: Send to',
    path: win32.join(dirs.appData, 'Microsoft', 'Windows', 'SendTo', 'Trayshare.lnk'),
    details: {
      target: app.exe,
      args: '--share',
      description: VERB_LABEL,
      icon: app.exe,
      iconIndex: 0,
    },
  };
}

export function windowsEntries(
  app: AppPaths,
  dirs: WindowsDirs,
): (RegistryVerbEntry | ShortcutEntry)[] {
  return [
    verb(app, 'explorer-files-verb', '*'),
    verb(app, 'explorer-folders-verb', 'Directory'),
    sendToShortcut(app, dirs),
  ];
}

const valueArgs = (value: RegistryValue) => (value.name === null ? ['/ve'] : ['/v', value.name]);

/** reg.exe argument arrays that write the verb (after regDeleteArgs cleared it). */
export function regAddArgs(entry: RegistryVerbEntry): string[][] {
  const writes = entry.keys.flatMap(({ key, values }) =>
    values.map((value) => [
      'add',
      key,
      ...valueArgs(value),
      '/t',
      'REG_SZ',
      '/d',
      value.data,
      '/f',
    ]),
  );
  const signature: RegistryValue = { name: SIGNATURE_VALUE, data: entry.signature };
  return [
    ...writes,
    ['add', entry.key, ...valueArgs(signature), '/t', 'REG_SZ', '/d', signature.data, '/f'],
  ];
}

export const regDeleteArgs = (entry: RegistryVerbEntry): string[] => ['delete', entry.key, '/f'];

export const regQueryKeyArgs = (entry: RegistryVerbEntry): string[] => ['query', entry.key];

export const regQuerySignatureArgs = (entry: RegistryVerbEntry): string[] => [
  'query',
  entry.key,
  '/v',
  SIGNATURE_VALUE,
];

/** The data of a REG_SZ value in `reg query … /v name` output, or null. */
export function parseRegQueryValue(stdout: string, name: string): string | null {
  for (const line of stdout.split(/\r?\n/)) {
    const match = /^\s+(.+?)\s+REG_SZ\s{4}(.*)$/.exec(line);
    if (match && match[1] === name) return match[2] ?? '';
  }
  return null;
}
