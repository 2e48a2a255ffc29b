// `npm start` on a machine that cannot download Electron: the real launcher and the electron
// package's real installer, pointed (ELECTRON_MIRROR) at a local address that refuses the
// connection or answers 404, as an offline machine, a firewall or a wrong mirror would.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadFailureMessage } from './electron-binary.mjs';

const launcher = fileURLToPath(new URL('./launch-electron.mjs', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-electron-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `npm start`'s launcher with no Electron binary and downloads from `mirror`. */
function launch(mirror: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ELECTRON_MIRROR: mirror,
    // A folder that does not exist: the binary is missing even where Electron is installed.
    ELECTRON_OVERRIDE_DIST_PATH: join(dir, 'no-electron-here'),
    electron_config_cache: join(dir, 'cache'),
    ELECTRON_GET_NO_PROGRESS: '1',
  };
  delete env.ELECTRON_GET_USE_PROXY;
  return new Promise((resolve) => {
    execFile(process.execPath, [launcher], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

function expectPlainExplanation(output: string): void {
  expect(output).toContain('could not be downloaded');
  expect(output).toContain('ELECTRON_MIRROR');
  expect(output).toContain('HTTPS_PROXY');
  expect(output).toContain('npm start again');
  // No Node stack, and not the electron package's advice to delete node_modules/electron.
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toContain('failed to install correctly');
}

describe('npm start without a downloadable Electron', () => {
  it('says the connection could not be made, where to, and how to go on; exits 1 with no stack', async () => {
    // A port that was free a moment ago refuses the connection, as an offline machine does.
    const closed = createServer();
    const mirror = await listen(closed);
    await new Promise((done) => closed.close(done));

    const run = await launch(mirror);
    expect(run.code).toBe(1);
    const output = run.stdout + run.stderr;
    expectPlainExplanation(output);
    expect(output).toContain('no connection could be made');
    expect(output).toContain(`From:  ${mirror}v`);
  }, 60_000);

  it('names the answer of a mirror that does not have the file', async () => {
    const server = createServer((_req, res) => {
      res.statusCode = 404;
      res.end('not here');
    });
    const mirror = await listen(server);
    try {
      const run = await launch(mirror);
      expect(run.code).toBe(1);
      const output = run.stdout + run.stderr;
      expectPlainExplanation(output);
      expect(output).toMatch(
        /Error: HTTPError: Response code 404 \(Not Found\) for http:\/\/127\.0\.0\.1/,
      );
    } finally {
      await new Promise((done) => server.close(done));
    }
  }, 60_000);

  it('tells Windows users how to set a variable in PowerShell and cmd.exe', () => {
    const message = downloadFailureMessage({
      version: '45.4.1',
      platform: 'win32',
      arch: 'x64',
      env: {},
      output: 'TypeError: fetch failed\n    at somewhere (file.js:1:1)',
    });
    expect(message).toContain(
      'https://github.com/electron/electron/releases/download/v45.4.1/electron-v45.4.1-win32-x64.zip',
    );
    expect(message).toContain('$env:ELECTRON_MIRROR = ');
    expect(message).toContain('set ELECTRON_MIRROR=');
    expect(message).not.toContain('somewhere');
  });
});
