// The set-up CI runs (`setup.mjs test --electron` → setup-electron.mjs) installs Electron's binary
// with the electron package's own installer, from ELECTRON_MIRROR into electron_config_cache.
// Here the mirror is a server on 127.0.0.1 serving a stand-in zip and its SHASUMS256.txt, laid
// out as Electron's releases are (`v<version>/electron-v<version>-<platform>-<arch>.zip`,
// https://www.electronjs.org/docs/latest/tutorial/installation, "Custom Mirrors and Caches").
// The project is a scratch folder holding copies of the installed package's install.js,
// package.json and checksums.json (install.js extracts next to itself), so this checkout's own
// node_modules/electron is never touched; install.js's own dependencies come through NODE_PATH.
// electron_use_remote_checksums makes install.js check the zip against the mirror's
// SHASUMS256.txt instead of the checksums of the real release it ships.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { platformBinaryPath } from '../../build/scripts/electron-binary.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = join(root, 'build', 'scripts', 'setup-electron.mjs');
const realPackage = join(root, 'node_modules', 'electron');
const { version } = JSON.parse(await readFile(join(realPackage, 'package.json'), 'utf8'));
const zipName = `electron-v${version}-${process.platform}-${process.arch}.zip`;
const binaryPath = platformBinaryPath(process.platform);
const STAND_IN = 'stand-in for the Electron binary\n';

const text = (s: string) => new TextEncoder().encode(s);

/** A zip laid out as Electron's: the binary (executable) and the `version` file. */
function standInZip(): Uint8Array {
  // fflate's `os: 3` (Unix) with the mode in the high 16 bits of `attrs` keeps the exec bit.
  return zipSync({
    [binaryPath]: [text(STAND_IN), { os: 3, attrs: 0o100755 << 16 }],
    version: text(version),
  });
}

interface Mirror {
  url: string;
  requests: string[];
  files: Map<string, Uint8Array | string>;
  server: Server;
}

async function startMirror(): Promise<Mirror> {
  const files = new Map<string, Uint8Array | string>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const body = files.get(req.url ?? '');
    res.statusCode = body === undefined ? 404 : 200;
    res.end(body ?? 'not on this mirror');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, requests, files, server };
}

function serveRelease(mirror: Mirror, zip: Uint8Array, sha256 = hash(zip)): void {
  mirror.files.set(`/v${version}/${zipName}`, zip);
  mirror.files.set(`/v${version}/SHASUMS256.txt`, `${sha256} *${zipName}\n`);
}

const hash = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let dir: string;
let project: string;
let mirror: Mirror;
const packageDir = () => join(project, 'node_modules', 'electron');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-electron-install-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  project = await mkdtemp(join(dir, 'project-'));
  await mkdir(packageDir(), { recursive: true });
  await writeFile(join(project, 'package.json'), '{"private":true}\n');
  for (const file of ['install.js', 'package.json', 'checksums.json']) {
    await copyFile(join(realPackage, file), join(packageDir(), file));
  }
  mirror = await startMirror();
});
afterEach(async () => {
  await new Promise((done) => mirror.server.close(done));
});

/** The set-up's Electron step for the scratch project, as a separate process. */
function setUp(): Promise<{ code: number; output: string }> {
  const env: NodeJS.ProcessEnv = {};
  // Only this test's download settings: none of npm's or the machine's electron settings.
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_config_|npm_package_config_|electron_|force_no_cache$)/i.test(key))
      env[key] = value;
  }
  Object.assign(env, {
    ELECTRON_MIRROR: mirror.url,
    electron_config_cache: join(dir, `cache-${project.slice(-6)}`),
    electron_use_remote_checksums: '1',
    ELECTRON_GET_NO_PROGRESS: '1',
    NODE_PATH: join(root, 'node_modules'),
  });
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, project],
      { env, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: stdout + stderr });
      },
    );
  });
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe("the set-up's Electron install (setup.mjs test --electron)", () => {
  it('downloads from ELECTRON_MIRROR, checks SHASUMS256.txt, leaves path.txt and the binary in place', async () => {
    const zip = standInZip();
    serveRelease(mirror, zip);
    const run = await setUp();
    expect(run.output).toContain('Electron binary in place');
    expect(run.code).toBe(0);
    expect(mirror.requests).toEqual(
      expect.arrayContaining([`/v${version}/${zipName}`, `/v${version}/SHASUMS256.txt`]),
    );
    expect(await readFile(join(packageDir(), 'path.txt'), 'utf8')).toBe(binaryPath);
    const binary = join(packageDir(), 'dist', binaryPath);
    expect(await readFile(binary, 'utf8')).toBe(STAND_IN);
    if (process.platform !== 'win32') {
      expect((await stat(binary)).mode & 0o111).not.toBe(0);
    }
    // The zip is kept in electron_config_cache (a folder per address, @electron/get's Cache).
    const cache = join(dir, `cache-${project.slice(-6)}`);
    const cached = await readdir(cache, { recursive: true });
    expect(cached.some((name) => name.endsWith(zipName))).toBe(true);
  }, 60_000);

  it('installs again from electron_config_cache when the mirror no longer has the zip', async () => {
    const zip = standInZip();
    serveRelease(mirror, zip);
    expect((await setUp()).code).toBe(0);
    await rm(join(packageDir(), 'dist'), { recursive: true });
    await rm(join(packageDir(), 'path.txt'));
    mirror.files.delete(`/v${version}/${zipName}`);
    mirror.requests.length = 0;

    const again = await setUp();
    expect(again.code).toBe(0);
    expect(mirror.requests).not.toContain(`/v${version}/${zipName}`);
    expect(await readFile(join(packageDir(), 'path.txt'), 'utf8')).toBe(binaryPath);
    expect(await exists(join(packageDir(), 'dist', binaryPath))).toBe(true);
  }, 60_000);

  it('fails with the address and the error when the mirror does not have the release', async () => {
    const run = await setUp();
    expect(run.code).toBe(1);
    expect(run.output).toContain(`From:  ${mirror.url}v${version}/${zipName}`);
    expect(run.output).toMatch(/Error: HTTPError: Response code 404 \(Not Found\)/);
    expect(run.output).toContain('node build/scripts/setup.mjs test --electron again');
    expect(run.output).not.toMatch(/^\s+at /m);
    expect(await exists(join(packageDir(), 'path.txt'))).toBe(false);
  }, 60_000);

  it('fails, and installs nothing, when the zip does not match SHASUMS256.txt', async () => {
    serveRelease(mirror, standInZip(), '0'.repeat(64));
    const run = await setUp();
    expect(run.code).toBe(1);
    expect(run.output).toContain(`From:  ${mirror.url}v${version}/${zipName}`);
    expect(run.output).toMatch(/Error: .*checksum/i);
    expect(await exists(join(packageDir(), 'path.txt'))).toBe(false);
    expect(await exists(join(packageDir(), 'dist', binaryPath))).toBe(false);
  }, 60_000);

  it('fails when the installer finishes but leaves no binary (a zip without it)', async () => {
    serveRelease(mirror, zipSync({ version: text(version) }));
    const run = await setUp();
    expect(run.code).toBe(1);
    expect(run.output).toContain(`From:  ${mirror.url}v${version}/${zipName}`);
    expect(run.output).toContain(
      `Error: the download finished but ${join(packageDir(), 'dist', binaryPath)} is missing`,
    );
  }, 60_000);
});
