import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AutostartEntry,
  autostartFile,
  autostartIsCurrent,
  disableAutostart,
  enableAutostart,
  renderAutostartEntry,
  setAutostart,
  xdgConfigHome,
} from './xdg-autostart';

// Reads an Exec value back the way a desktop environment does (Desktop Entry Specification:
// string escapes first, then the quoting rules, then %% → %), so the test checks what a
// session would actually run rather than the exact bytes we chose to write.
function parseExec(value: string): string[] {
  let unescaped = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\' && i + 1 < value.length) {
      const n = value[++i];
      unescaped += n === 'n' ? '\n' : n === 't' ? '\t' : n === 'r' ? '\r' : n === 's' ? ' ' : n;
    } else unescaped += c;
  }
  const args: string[] = [];
  let current: string | null = null;
  for (let i = 0; i < unescaped.length; i++) {
    const c = unescaped[i]!;
    if (c === '"') {
      current ??= '';
      for (i++; i < unescaped.length && unescaped[i] !== '"'; i++) {
        if (unescaped[i] === '\\' && '"`$\\'.includes(unescaped[i + 1] ?? '')) i++;
        current += unescaped[i];
      }
      if (i >= unescaped.length) throw new Error('unterminated quote');
    } else if (c === ' ') {
      if (current !== null) args.push(current);
      current = null;
    } else {
      if (/["'\\><~|&;$*?#`()\t\n]/.test(c)) throw new Error(`unquoted reserved character ${c}`);
      current = (current ?? '') + c;
    }
  }
  if (current !== null) args.push(current);
  return args.map((a) => a.replace(/%%/g, '%'));
}

function keyOf(text: string, key: string): string | undefined {
  return text
    .split('\n')
    .find((line) => line.startsWith(`${key}=`))
    ?.slice(key.length + 1);
}

describe('XDG autostart entry', () => {
  let dir: string;
  let entry: AutostartEntry;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'trayshare-autostart-'));
    entry = {
      configHome: join(dir, 'config home'),
      id: 'trayshare',
      name: 'Trayshare',
      comment: 'Share files to your team',
      command: ['/opt/Trayshare/trayshare', '--autostart'],
    };
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a desktop entry that starts the app at login, and removes it', async () => {
    const file = await enableAutostart(entry);
    expect(file).toBe(join(dir, 'config home', 'autostart', 'trayshare.desktop'));
    const text = await readFile(file, 'utf8');
    expect(text.startsWith('[Desktop Entry]\n')).toBe(true);
    expect(keyOf(text, 'Type')).toBe('Application');
    expect(keyOf(text, 'Name')).toBe('Trayshare');
    expect(parseExec(keyOf(text, 'Exec')!)).toEqual(['/opt/Trayshare/trayshare', '--autostart']);
    expect(await disableAutostart(entry)).toBe(true);
    expect(await readdir(join(dir, 'config home', 'autostart'))).toEqual([]);
    expect(await disableAutostart(entry)).toBe(false);
  });

  it.each([
    ['spaces', '/home/ana/My Apps/Trayshare.AppImage'],
    ['double and single quotes', `/home/o'brien/"quoted" apps/trayshare`],
    ['shell characters', '/tmp/$HOME/`cmd`/a\\b/trayshare;rm -rf ~ & echo *?#()|<>'],
    ['percent signs', '/srv/100% apps/%F/trayshare'],
    ['non-ASCII', '/home/zoë/Programme/Überträger 共享/trayshare'],
    ['a tab and a newline', '/tmp/odd\tname\nsecond line/trayshare'],
  ])('keeps a program path with %s intact', async (_label, program) => {
    await enableAutostart({ ...entry, command: [program, '--autostart'] });
    const text = await readFile(autostartFile(entry), 'utf8');
    const exec = keyOf(text, 'Exec')!;
    // A program path with % is started through env (quoting.ts, desktopExec: GLib).
    const args = parseExec(exec);
    expect(args[0] === 'env' ? args.slice(1) : args).toEqual([program, '--autostart']);
    expect(args[0] === 'env').toBe(program.includes('%'));
    // Every key stays on its own line, whatever the path holds.
    expect(text.split('\n').filter((l) => l.startsWith('Exec=')).length).toBe(1);
  });

  it('rewrites an entry that points at an old location, and leaves a current one alone', async () => {
    await setAutostart({ ...entry, command: ['/old/place/trayshare', '--autostart'] }, true);
    expect(await autostartIsCurrent(entry)).toBe(false);
    await setAutostart(entry, true);
    expect(await autostartIsCurrent(entry)).toBe(true);
    const before = await stat(autostartFile(entry));
    await setAutostart(entry, true);
    const after = await stat(autostartFile(entry));
    expect(after.ino).toBe(before.ino);
    await setAutostart(entry, false);
    expect(await autostartIsCurrent(entry)).toBe(false);
  });

  it('uses XDG_CONFIG_HOME only when it is absolute', () => {
    expect(xdgConfigHome({ XDG_CONFIG_HOME: '/x/cfg' }, '/home/a')).toBe('/x/cfg');
    expect(xdgConfigHome({ XDG_CONFIG_HOME: 'relative' }, '/home/a')).toBe('/home/a/.config');
    expect(xdgConfigHome({}, '/home/a')).toBe('/home/a/.config');
  });

  it('keeps the name on one line', () => {
    const text = renderAutostartEntry({ ...entry, name: 'Tray\nshare' });
    expect(keyOf(text, 'Name')).toBe('Tray\\nshare');
  });
});
