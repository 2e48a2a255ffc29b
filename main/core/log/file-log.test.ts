// The log file itself, on a real file in a temp folder: rotation at the cap keeps the newest
// lines, only one older file is kept, the file is the person's alone, and every line is
// redacted on its way to the file and to stderr.
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeFile, withoutName } from './describe-file';
import { openFileLog } from './file-log';
import { redactSecrets } from './redact';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-log-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const numbered = (n: number) => `line ${String(n).padStart(4, '0')} ${'x'.repeat(60)}`;

describe('the log file', () => {
  it('rotates at the cap: the newest lines stay, one older file is kept, nothing more', async () => {
    const log = openFileLog({ dir, name: 'trayshare.log', maxBytes: 4000 });
    for (let n = 0; n < 300; n++) log.info(numbered(n));
    expect((await readdir(dir)).sort()).toEqual(['trayshare.log', 'trayshare.old.log']);
    // Past the cap by at most the line that crossed it.
    expect((await stat(log.file)).size).toBeLessThanOrEqual(4000 + 200);
    expect((await stat(log.oldFile)).size).toBeLessThanOrEqual(4000 + 200);
    const current = await readFile(log.file, 'utf8');
    expect(current).toContain(numbered(299));
    const both = `${await readFile(log.oldFile, 'utf8')}${current}`;
    expect(both).not.toContain(numbered(0));
    // The tail reads across the rotation, oldest first.
    const tail = await log.tail(50);
    expect(tail).toHaveLength(50);
    expect(tail.map((l) => /line (\d+)/.exec(l)?.[1])).toEqual(
      Array.from({ length: 50 }, (_, i) => String(250 + i).padStart(4, '0')),
    );
  });

  it('is readable by its owner only, and says when and how bad', async () => {
    const log = openFileLog({ dir: join(dir, 'nested', 'logs'), name: 'trayshare.log' });
    log.warn('a thing happened');
    if (process.platform !== 'win32') {
      expect((await stat(log.file)).mode & 0o777).toBe(0o600);
    }
    expect(await readFile(log.file, 'utf8')).toMatch(
      /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] \[warn\] +a thing happened\r?\n$/,
    );
  });

  it('redacts every line, in the file and on the echo', async () => {
    const echoed: string[] = [];
    const log = openFileLog({ dir, name: 't.log', echo: (line) => echoed.push(line) });
    log.error(
      'answer {"ok":false,"token":"sekrit-1"} to Authorization: Bearer xoxb-1-2-abc via https://me:pw@proxy:3128 with xoxe.xoxp-1-rot and code=abc123&state=s',
    );
    const text = await readFile(log.file, 'utf8');
    for (const out of [text, echoed.join('\n')]) {
      for (const secret of ['sekrit-1', 'xoxb-1-2-abc', 'me:pw', 'xoxp-1-rot', 'abc123']) {
        expect(out).not.toContain(secret);
      }
      expect(out).toContain('state=s');
    }
    expect(echoed).toHaveLength(1);
    expect(echoed[0]).toMatch(/^\[error\] +answer /);
  });
});

describe('redaction, the second line of defence', () => {
  it.each([
    ['xoxb-1234-5678-abcdef', '[token]'],
    ['xoxp-1-2-3-4', '[token]'],
    ['xoxe-1-refresh', '[token]'],
    ['xoxe.xoxp-1-access', '[token]'],
    ['xapp-1-A0-abc', '[token]'],
    ['Authorization: Bearer abc.def', 'Authorization: [redacted]'],
    ['{"authorization":"Bearer abc"}', '{"authorization":"[redacted]"}'],
    ['?code=4/0Ab&code_verifier=v3r1f', '?code=[redacted]&code_verifier=[redacted]'],
    ['refresh_token=r&client_secret=s', 'refresh_token=[redacted]&client_secret=[redacted]'],
    ['{"refresh_token": "r1"}', '{"refresh_token":"[redacted]"}'],
    ['socks5://user:pass@host:1080', 'socks5://[redacted]@host:1080'],
  ])('%s', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('leaves ordinary lines alone', () => {
    const line =
      'Share 1a2b3c4d via external, 2 files to 1 channel: 2 delivered (a .png of 2.1 MB)';
    expect(redactSecrets(line)).toBe(line);
  });
});

describe('how a file is named in the log', () => {
  it('by kind and size, unless detailed logs are on', () => {
    expect(describeFile('Salaries 2026.PNG', 2_100_000, false)).toBe('a .png of 2.1 MB');
    expect(describeFile('notes', 12, false)).toBe('a file of 12 bytes');
    expect(describeFile('x.confidential-report', 12, false)).toBe('a file of 12 bytes');
    expect(describeFile('Salaries 2026.png', 2_100_000, true)).toBe('“Salaries 2026.png” (2.1 MB)');
  });

  it('cuts the name and path out of a message', () => {
    const file = { name: 'plan.txt', path: join('home', 'me', 'plan.txt') };
    expect(withoutName(`${file.path} changed while plan.txt was sent`, file)).toBe(
      '[file] changed while [file] was sent',
    );
  });
});
