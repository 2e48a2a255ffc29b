// Installs what `npm start` / `npm run demo` (mode "app") or `npm test` (mode "test") need,
// on macOS, Windows and Linux alike: checks the Node.js version, installs Debian packages on
// Linux (with sudo when not root), then the npm packages when package-lock.json or the Node
// version changed since the last install. Safe to run repeatedly; says plainly what is missing.
// `npm ci` does not download Electron's binary: Electron 45's package has no postinstall
// (electron/electron#49328). With `--electron` (CI, which runs the real-Electron tests) its own
// installer runs after `npm ci` and a failed download fails the set-up (setup-electron.mjs);
// without it `npm start` downloads the binary on first use (electron-binary.mjs).
// Plain Node (no bash, no sha256sum) so the npm lifecycle scripts run from cmd.exe too.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { debianPackages, nodeVersionProblem, otherLinuxAdvice } from './setup-checks.mjs';
import { setUpElectron } from './setup-electron.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const mode = process.argv[2] === 'app' ? 'app' : 'test';
const withElectron = process.argv.includes('--electron');
const say = (message) => process.stderr.write(`setup: ${message}\n`);

function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    shell: process.platform === 'win32',
    ...options,
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const versionProblem = nodeVersionProblem(
  process.versions.node,
  pkg.engines.node,
  process.platform,
);
if (versionProblem) {
  say(versionProblem);
  process.exit(1);
}

if (process.platform === 'linux') {
  let osRelease = '';
  try {
    osRelease = readFileSync('/etc/os-release', 'utf8');
  } catch {
    // No os-release: treat it as Debian, whose chromium package is the browser itself.
  }
  const wanted = debianPackages(mode, osRelease);
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get && command -v dpkg-query'], {
    stdio: 'ignore',
  });
  if (hasApt.status === 0) {
    const missing = wanted.filter((name) => {
      const q = spawnSync('dpkg-query', ['-W', `-f=\${Status}`, name], { encoding: 'utf8' });
      return !q.stdout?.includes('install ok installed');
    });
    if (missing.length > 0) {
      const root = process.getuid?.() === 0;
      const hasSudo = spawnSync('sh', ['-c', 'command -v sudo'], { stdio: 'ignore' }).status === 0;
      if (!root && !hasSudo) {
        say(
          `please install these Debian packages first: sudo apt-get install ${missing.join(' ')}`,
        );
        process.exit(1);
      }
      const sudo = root ? [] : ['sudo'];
      say(`installing ${missing.join(' ')}`);
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      const apt = (...args) =>
        sudo.length ? run('sudo', ['apt-get', ...args], { env }) : run('apt-get', args, { env });
      if (
        apt('update', '-qq') !== 0 ||
        apt('install', '-y', '-qq', '--no-install-recommends', ...missing) !== 0
      ) {
        say(`could not install ${missing.join(' ')}: install them, then run this again.`);
        process.exit(1);
      }
    }
  } else {
    say(otherLinuxAdvice(mode));
  }
}

// The stamp names the lock's hash and the Node version: a new Node needs keytar built for it.
const stampFile = join(root, 'node_modules', '.trayshare-setup.json');
const want = {
  lock: createHash('sha256')
    .update(readFileSync(join(root, 'package-lock.json')))
    .digest('hex'),
  node: process.versions.modules,
};
let have = null;
try {
  have = JSON.parse(readFileSync(stampFile, 'utf8'));
} catch {
  have = null;
}
if (!have || have.lock !== want.lock || have.node !== want.node) {
  say('installing npm packages');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // The lock names every platform's native builds (test/packaging/platform-install.test.ts),
  // so a clean, exact install works on every OS. It brings Electron's package, not its binary.
  if (run(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root }) !== 0) {
    say('npm could not install the packages (see above).');
    process.exit(1);
  }
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, `${JSON.stringify(want)}\n`);
}
if (!existsSync(join(root, 'node_modules', 'keytar', 'build', 'Release', 'keytar.node'))) {
  say(
    "warning: keytar has no native build, so the keychain will not work: see npm's output above.",
  );
}
if (withElectron) process.exitCode = await setUpElectron(root, say);
