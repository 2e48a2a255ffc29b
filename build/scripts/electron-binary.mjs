// The Electron binary for `npm start`, `npm run demo` and the set-up CI runs (setup-electron.mjs).
// Electron 45's package has no postinstall (electron/electron#49328, "lazy electron download";
// its package.json has no scripts): `npm ci` leaves no binary, and the package downloads it on
// first use (node_modules/electron/index.js calls its install.js) or through its install-electron
// bin (https://www.electronjs.org/docs/latest/tutorial/installation, "Binary download step").
// When that download fails the package throws "Electron failed to install correctly…" after
// install.js has printed a Node stack. Here the same install.js runs with its output captured,
// and a failure becomes a plain explanation: what could not be fetched, from where, and how to
// go on (network, proxy, ELECTRON_MIRROR, retry), as the installation page describes them.
// install.js itself reads ELECTRON_MIRROR (through @electron/get) and electron_config_cache.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Where the electron package keeps its binary (install.js, getPlatformPath). */
export function platformBinaryPath(platform) {
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

/** The address @electron/get downloads from (its default mirror, or ELECTRON_MIRROR). */
export function downloadUrl({ version, platform, arch, env }) {
  const mirror = env.ELECTRON_MIRROR || 'https://github.com/electron/electron/releases/download/';
  const dir = env.ELECTRON_CUSTOM_DIR?.replace('{{ version }}', version) ?? `v${version}`;
  const file = env.ELECTRON_CUSTOM_FILENAME ?? `electron-v${version}-${platform}-${arch}.zip`;
  return `${mirror.endsWith('/') ? mirror : `${mirror}/`}${dir}/${file}`;
}

/** The error line of install.js's output, without the stack under it. */
export function firstErrorLine(output) {
  const lines = output
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(
      (line) => line !== '' && !line.startsWith('at ') && !/^Downloading Electron/i.test(line),
    );
  const line = lines[0] ?? 'the download ended without saying why';
  // Node's fetch says only "fetch failed" when no connection could be made.
  return /^TypeError: fetch failed$/.test(line)
    ? 'no connection could be made (fetch failed)'
    : line;
}

/** How to set a variable for one command in the shell people use on this OS. */
function withVariable(platform, name, value, command) {
  return platform === 'win32'
    ? `$env:${name} = "${value}"; ${command}      (PowerShell; cmd.exe: set ${name}=${value})`
    : `${name}=${value} ${command}`;
}

export function downloadFailureMessage({
  version,
  platform,
  arch,
  env,
  output,
  retry = 'npm start',
}) {
  const url = downloadUrl({ version, platform, arch, env });
  const headline =
    retry === 'npm start'
      ? `Trayshare cannot start: Electron ${version}, which npm start downloads the first time, could not be downloaded.`
      : `Electron ${version}, which ${retry} installs for the end-to-end tests, could not be downloaded.`;
  return [
    headline,
    `  From:  ${url}`,
    `  Error: ${firstErrorLine(output)}`,
    '',
    'What to do:',
    `  - Offline, or a firewall that blocks the address above: connect (or ask for it to be allowed), then run ${retry} again.`,
    `  - Behind a proxy: ${withVariable(platform, 'ELECTRON_GET_USE_PROXY', '1', retry)}, with HTTPS_PROXY set to your proxy (and NO_PROXY for hosts that bypass it).`,
    `  - Where that address cannot be reached at all, download from a mirror that can: ${withVariable(platform, 'ELECTRON_MIRROR', 'https://your-mirror.example/electron/', retry)}`,
    `  - Running ${retry} again retries the download; nothing else needs to be deleted first.`,
    'More: https://www.electronjs.org/docs/latest/tutorial/installation (Proxies; Custom Mirrors and Caches)',
  ].join('\n');
}

/** The electron package's folder in the project at `projectDir` (this checkout by default). */
export function electronPackageDir(projectDir) {
  const from = projectDir ? join(projectDir, 'package.json') : import.meta.url;
  return dirname(createRequire(from).resolve('electron/package.json'));
}

/**
 * The path of Electron's binary, downloading it first when it or the package's path.txt (which
 * the package's index.js and Playwright's launcher read) is missing. Resolves to `{ path }`, or
 * to `{ problem }` with what to tell the person; `retry` names the command that downloads again.
 */
export async function ensureElectronBinary({
  env = process.env,
  platform = process.platform,
  arch = process.arch,
  say = (message) => process.stderr.write(`${message}\n`),
  packageDir = electronPackageDir(),
  retry = 'npm start',
} = {}) {
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  // Same rule as node_modules/electron/index.js.
  const binary = join(
    env.ELECTRON_OVERRIDE_DIST_PATH || join(packageDir, 'dist'),
    platformBinaryPath(platform),
  );
  const pathFile = join(packageDir, 'path.txt');
  const installed = () => existsSync(binary) && existsSync(pathFile);
  if (installed()) return { path: binary };

  say(`Downloading Electron ${version} (once, about 100 MB)…`);
  const install = await runInstaller(join(packageDir, 'install.js'), env);
  if (install.code === 0 && installed()) return { path: binary };
  const output =
    install.code === 0
      ? `the download finished but ${existsSync(binary) ? pathFile : binary} is missing`
      : install.errors;
  return {
    problem: downloadFailureMessage({
      version,
      platform,
      arch: env.npm_config_arch || arch,
      env,
      output,
      retry,
    }),
  };
}

/**
 * Runs the electron package's installer. Its progress bar (after 30 s) reaches the terminal;
 * what it prints on failure, a Node stack, is kept for the explanation instead.
 */
function runInstaller(script, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'inherit', 'pipe'] });
    let errors = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      if (/Error|^\s+at /m.test(chunk) || errors !== '') errors += chunk;
      else process.stderr.write(chunk);
    });
    child.on('error', (error) => resolve({ code: 1, errors: error.message }));
    child.on('close', (code) => resolve({ code: code ?? 1, errors }));
  });
}
