import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { desktopExec, desktopExecArg, desktopString, shellQuote, xmlEscape } from './quoting';

// Paths people really have: spaces, both quotes, shell metacharacters, backslashes, non-ASCII.
const awkward = [
  '/home/zoë/My Apps/Trayshare',
  `/opt/it's "quoted"/trayshare`,
  '/tmp/$HOME `date` \\ back\\slash/app',
  '/tmp/日本語/ümlaut/app',
  '/tmp/semi;colon&amp|pipe*star?#hash(paren)/app',
];

describe('desktop entry quoting', () => {
  it('leaves plain arguments alone and quotes the program always', () => {
    expect(desktopExecArg('--share')).toBe('--share');
    expect(desktopExecArg('/opt/Trayshare/trayshare', true)).toBe('"/opt/Trayshare/trayshare"');
  });

  it('escapes ", `, $ and \\ inside quotes, then doubles every backslash for the string value', () => {
    expect(desktopExec('/a "b" $c `d` \\e', ['--share'], ['%F'])).toBe(
      '"/a \\\\"b\\\\" \\\\$c \\\\`d\\\\` \\\\\\\\e" --share %F',
    );
  });

  it('doubles % so a path is never read as a field code', () => {
    expect(desktopExecArg('/tmp/100%/app')).toBe('/tmp/100%%/app');
  });

  it('writes newlines and tabs as escapes, never as a line break', () => {
    expect(desktopString('a\nb\tc\\d')).toBe('a\\nb\\tc\\\\d');
    expect(desktopExec('/tmp/new\nline/app', [], ['%F'])).not.toContain('\n');
  });
});

// The words are read by /bin/sh (Nautilus scripts, Thunar commands: Linux file managers);
// Windows has no /bin/sh to read them.
describe.skipIf(process.platform === 'win32')('shell quoting', () => {
  it.each(awkward)('survives /bin/sh unchanged: %s', (path) => {
    const out = execFileSync('/bin/sh', ['-c', `printf '%s' ${shellQuote(path)}`], {
      encoding: 'utf8',
    });
    expect(out).toBe(path);
  });
});

describe('XML escaping', () => {
  it('escapes markup characters and keeps the rest', () => {
    expect(xmlEscape(`<a href="x">Tom & Jerry's ü</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s ü&lt;/a&gt;',
    );
  });
});
