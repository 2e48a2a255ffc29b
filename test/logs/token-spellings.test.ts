// However a token is spelled in a message, no log sink holds it: not the app's log file, not the
// copy of each line the app prints on stdout, not the CLI's log file nor its --verbose echo on
// stderr. The spellings are the ones that slipped through before (issue 32): URL-encoded, glued
// to a letter, a digit or `_`, with encoded characters, and secret fields whose values have no
// xox prefix. Real log files in a temp folder, written by the same code the app and CLI use.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileLog } from '../../main/core/log/file-log';
import { appLogLines } from '../../main/electron/app-log';
import { expectNoneOf, readLogs } from './grep-logs';

const rand = () => randomBytes(9).toString('base64url').replace(/[-_]/g, 'Q');

/** Each spelling, and the secret parts of it no sink may hold. */
function spellings(): [string, string, string[]][] {
  const a = rand();
  const b = rand();
  const c = rand();
  const d = rand();
  const e = rand();
  const f = rand();
  const g = rand();
  return [
    ['URL-encoded token=', `GET /x?token%3Dxoxp-1-${a}&y=1`, [a]],
    ['URL-encoded refresh_token=', `body refresh_token%3Dxoxe-1-${b}%26client_id%3D1`, [b]],
    [
      'after a letter, a digit or _',
      `team T_xoxp-2-${c} and 7xoxb-3-${c}Z and Uxoxe.xoxp-${c}Y`,
      [c],
    ],
    ['with encoded characters', `cookie d=xoxd-${d}%2B${e}%2F${d}`, [d, e]],
    ['refresh_token: x', `refresh_token: ${f}`, [f]],
    ["{ refresh_token: 'x' }", `{ refresh_token: '${f}Y', access_token: "${g}" }`, [f, g]],
    ['{"refresh_token":"x"}', `{"refresh_token":"${g}Z","code_verifier":"${a}Z"}`, [g, a]],
    ['JSON quoted inside a message', `answer {\\"refresh_token\\":\\"${e}W\\"}`, [e]],
    [
      'an incoming-webhook address, with or without a scheme',
      `"hooks.slack.com/services/T0${a}/B0${b}/${c}" is not a URL; and https://hooks.example.test/triggers/T1/${d}/${e}`,
      [a, b, c, d, e],
    ],
  ];
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-token-spellings-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a token in any spelling reaches no log sink', () => {
  it.each(spellings())(
    '%s: the app log file and its stdout copy',
    async (_name, message, secrets) => {
      const logsDir = await mkdtemp(join(dir, 'app-'));
      const file = openFileLog({ dir: logsDir, name: 'trayshare.log' });
      const stdout: string[] = [];
      const lines = appLogLines(
        () => file,
        (line) => stdout.push(line),
      );
      lines.info(`Sign-in answer: ${message}`);
      lines.warn(`Again, as a warning: ${message}`);
      await expect.poll(async () => (await file.tail(10)).length).toBe(2);
      const texts = await readLogs(logsDir);
      texts.set('stdout', stdout.join('\n'));
      expectNoneOf(secrets, texts);
      // The line is still there, only the secret cut out.
      expect(stdout[0]).toMatch(/^\[trayshare\] Sign-in answer: .*(\[token\]|\[redacted\])/);
    },
  );

  it.each(spellings())(
    '%s: the CLI log file and its --verbose echo',
    async (_name, message, secrets) => {
      const logsDir = await mkdtemp(join(dir, 'cli-'));
      const echoed: string[] = [];
      const log = openFileLog({
        dir: logsDir,
        name: 'trayshare-cli.log',
        echo: (line) => echoed.push(line),
      });
      log.error(message);
      await expect.poll(async () => (await log.tail(10)).length).toBe(1);
      const texts = await readLogs(logsDir);
      texts.set('stderr', echoed.join('\n'));
      expectNoneOf(secrets, texts);
    },
  );
});
