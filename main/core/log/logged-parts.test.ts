// The app's proxy routing as the log tells it: the system's answer for a host when it changes
// (never a credential), and a resolver that fails, on a real log file. The resolver's answers
// are injected: the system's proxy settings are Electron's (session.resolveProxy).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFileLog } from './file-log';
import { loggedProxyResolver } from './logged-parts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-proxy-log-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the proxy route in the log', () => {
  it('says the route for a host when it changes, and a resolver that fails', async () => {
    const log = openFileLog({ dir, name: 't.log' });
    const answers = ['PROXY proxy.corp:3128', 'PROXY proxy.corp:3128', 'DIRECT'];
    const resolve = loggedProxyResolver(async () => {
      const next = answers.shift();
      if (next === undefined) throw new Error('the PAC script failed');
      return next;
    }, log);
    expect(await resolve('https://files.slack.com/upload/v1/abc?token=xoxb-1-2')).toBe(
      'PROXY proxy.corp:3128',
    );
    await resolve('https://files.slack.com/upload/v1/def');
    expect(await resolve('https://files.slack.com/upload/v1/ghi')).toBe('DIRECT');
    await expect(resolve('https://files.slack.com/x')).rejects.toThrow('the PAC script failed');
    const lines = (await readFile(log.file, 'utf8')).trim().split(/\r?\n/);
    expect(lines.map((l) => l.replace(/^\[[^\]]+\] /, ''))).toEqual([
      '[info]  Proxy: requests to files.slack.com go PROXY proxy.corp:3128',
      '[info]  Proxy: requests to files.slack.com go DIRECT',
      '[warn]  Proxy: the system could not say how to reach files.slack.com: the PAC script failed',
    ]);
  });
});
