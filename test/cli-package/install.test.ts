// The standalone CLI package (`npm run pack:cli`) installed as a person without the repository
// would: `npm install -g` of its tarball into a throw-away prefix, then `trayshare` run from a
// folder outside the repository against the reference service. Proves the package carries
// everything it needs (bundle, bin, runtime dependencies, keytar built for this machine).
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceService, startReferenceService } from '../reference-service/server';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
// The token the reference service accepts by default (test/reference-service/config.ts).
const TOKEN = 'xoxb-test-token';
const win = process.platform === 'win32';

let work: string;
let prefix: string;
let service: ReferenceService;
let tarball: string;

/**
 * `trayshare` as installed by npm -g (prefix/bin/trayshare, or prefix\trayshare.cmd on Windows),
 * called by its full path so no other `trayshare` on PATH can answer instead.
 */
function trayshare(
  args: string[],
  input = '',
): Promise<{ code: number | null; out: string; err: string }> {
  const bin = win ? join(prefix, 'trayshare.cmd') : join(prefix, 'bin', 'trayshare');
  return new Promise((resolve, reject) => {
    // A .cmd shim runs only through cmd.exe, which splits on spaces: quote every part (none of
    // the test's arguments holds a double quote or a %).
    const child = spawn(
      win ? [bin, ...args].map((a) => `"${a}"`).join(' ') : bin,
      win ? [] : args,
      {
        cwd: work,
        shell: win,
        env: {
          ...process.env,
          TRAYSHARE_TOKEN: '',
          TRAYSHARE_DATA_DIR: join(work, 'data'),
          NODE_PATH: '',
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}

beforeAll(async () => {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  await run(process.execPath, [join(root, 'build', 'scripts', 'pack-cli.mjs')], { cwd: root });
  tarball = join(root, 'dist', 'cli-package', `trayshare-${pkg.version}.tgz`);
  work = await mkdtemp(join(tmpdir(), 'trayshare-cli-package-'));
  prefix = join(work, 'prefix');
  service = await startReferenceService({ dataDir: join(work, 'service') });
  // npm as the person has it set up (registry, cache, nodedir): test/with-keyring.sh gives the
  // tests a throw-away HOME, and `npx vitest` exports its own npm_config_* settings; neither is
  // what `npm install -g` would see in the person's shell.
  const npmEnv: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)),
  );
  const realHome = process.env.TRAYSHARE_TEST_REAL_HOME;
  if (realHome) npmEnv.HOME = realHome;
  const npm = win ? 'npm.cmd' : 'npm';
  const started = process.hrtime.bigint();
  await run(
    npm,
    [
      'install',
      '--global',
      '--prefix',
      prefix,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      // npm 11 runs install scripts only for packages allowed; keytar's builds its native module.
      '--allow-scripts=keytar',
      tarball,
    ],
    { cwd: work, env: npmEnv, shell: win, maxBuffer: 16 * 1024 * 1024 },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stderr.write(`cli-package: npm install -g of the tarball took ${seconds.toFixed(1)} s\n`);
}, 300_000);

afterAll(async () => {
  if (prefix) await trayshare(['logout', '--workspace', 'Acme']).catch(() => undefined);
  await service?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the CLI package, installed from its tarball', () => {
  it('is a package of its own: a bin, engines, and only keytar and the proxy libraries', async () => {
    const installed = join(prefix, win ? '' : 'lib', 'node_modules', 'trayshare');
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    const ours = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: 'trayshare',
      version: ours.version,
      bin: { trayshare: 'trayshare.js' },
      engines: ours.engines,
    });
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      'keytar',
      'proxy-agent',
      'proxy-from-env',
    ]);
    expect(manifest.devDependencies).toBeUndefined();
    expect((await readdir(installed)).sort()).toEqual(
      [
        'README.md',
        'THIRD_PARTY_LICENSES.md',
        'chunks',
        'node_modules',
        'package.json',
        'trayshare.js',
      ].sort(),
    );
    // Nothing in it points back at the repository it was built from.
    const bundle = await readFile(join(installed, 'trayshare.js'), 'utf8');
    expect(bundle).not.toContain(root);
    expect(relative(root, installed).startsWith('..')).toBe(true);
  });

  it('says its version', async () => {
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    const result = await trayshare(['--version']);
    expect(result).toMatchObject({ code: 0, out: `${version}\n` });
  });

  it('logs in with the token from stdin and sends a file that lands once at the service', async () => {
    const login = await trayshare(
      ['login', '--workspace', 'Acme', '--base-url', service.url],
      `${TOKEN}\n`,
    );
    expect(login.err).toMatch(/Saved Acme/);
    expect(login.code).toBe(0);

    const file = join(work, 'report.csv');
    const bytes = Buffer.from('id,total\n1,42\n');
    await writeFile(file, bytes);
    const before = service.uploads().length;
    const send = await trayshare([
      'send',
      '--workspace',
      'Acme',
      '--channels',
      'C0GENERAL',
      '--comment',
      'From the packaged CLI',
      '--json',
      file,
    ]);
    expect(send.err).toBe('');
    expect(send.code).toBe(0);
    expect(JSON.parse(send.out.trim())).toMatchObject({ file, outcome: 'delivered' });
    const landed = service.uploads().slice(before);
    expect(landed).toHaveLength(1);
    expect(landed[0]).toMatchObject({
      name: 'report.csv',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      channels: ['C0GENERAL'],
      initial_comment: 'From the packaged CLI',
    });
    for (const output of [login, send]) expect(output.out + output.err).not.toContain(TOKEN);
  });
});
