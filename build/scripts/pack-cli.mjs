// `npm run pack:cli`: the `trayshare` CLI as a standalone npm package, installable without the
// repository (`npm install -g trayshare-<version>.tgz`), and publishable as it is.
//   dist/cli-package/trayshare/          the package folder (package.json, bin, README, licenses)
//   dist/cli-package/trayshare-<v>.tgz   `npm pack` of it, attached to each release
// The CLI is bundled with its pure-JS libraries (commander, conf, zod…); the package depends
// only on what cannot or should not be bundled: keytar (a native module, built or downloaded for
// the machine at install), proxy-agent and proxy-from-env (loaded when a proxy is configured).
// Plain Node, so it runs the same on every OS.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'dist', 'cli-package');
const pkgDir = join(out, 'trayshare');

/** Dependencies the package keeps (the rest is bundled); each must be in package.json's. */
const RUNTIME_DEPENDENCIES = ['keytar', 'proxy-agent', 'proxy-from-env'];

const rootPkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
await rm(out, { recursive: true, force: true });
await mkdir(pkgDir, { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: ['main/cli/trayshare.ts'],
  outdir: pkgDir,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // dbus-next's optional native helpers (the Linux capture's D-Bus client): required only on
  // paths Trayshare never takes (an X11 autolaunch without a session bus, usocket's fd passing).
  external: [...RUNTIME_DEPENDENCIES, 'x11', 'usocket'],
  sourcemap: false,
  metafile: true,
  // Bundled CommonJS libraries call require() for Node's modules: give the ESM output one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __trayshareRequire } from 'node:module';\nconst require = __trayshareRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
await chmod(join(pkgDir, 'trayshare.js'), 0o755);

// Every package bundled in, with its licence text: their licences ask for the notice to travel.
const bundled = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (m?.[1]) bundled.add(m[1]);
}
const notices = [];
for (const name of [...bundled].sort()) {
  const dir = join(root, 'node_modules', ...name.split('/'));
  const meta = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  const file = ['LICENSE', 'LICENSE.md', 'license', 'LICENSE.txt', 'license.md'].find((f) =>
    existsSync(join(dir, f)),
  );
  const text = file ? await readFile(join(dir, file), 'utf8') : `License: ${meta.license}`;
  notices.push(`## ${name} ${meta.version}\n\n${text.trim()}\n`);
}
await writeFile(
  join(pkgDir, 'THIRD_PARTY_LICENSES.md'),
  `# Libraries bundled into trayshare\n\n${notices.join('\n')}`,
);

const dependencies = {};
for (const name of RUNTIME_DEPENDENCIES) {
  const range = rootPkg.dependencies[name];
  if (!range) throw new Error(`pack-cli: ${name} is not in package.json's dependencies`);
  dependencies[name] = range;
}
const manifest = {
  name: 'trayshare',
  version: rootPkg.version,
  description: 'Share files to team channels (Slack-style files.upload) from the command line.',
  license: rootPkg.license,
  author: rootPkg.author,
  homepage: rootPkg.homepage,
  type: 'module',
  bin: { trayshare: 'trayshare.js' },
  files: ['trayshare.js', 'chunks/', 'README.md', 'THIRD_PARTY_LICENSES.md'],
  engines: rootPkg.engines,
  dependencies,
};
await writeFile(join(pkgDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
await cp(join(root, 'build', 'cli-package', 'README.md'), join(pkgDir, 'README.md'));

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// The tarball's name is known (name-version.tgz): npm's --json output changed shape across
// versions (an array, then an object by package name: npm/cli#9247), so it is not parsed.
const packed = spawnSync(npm, ['pack', '--pack-destination', out], {
  cwd: pkgDir,
  encoding: 'utf8',
  shell: process.platform === 'win32',
});
const tarball = join(out, `trayshare-${manifest.version}.tgz`);
if (packed.status !== 0 || !existsSync(tarball)) {
  process.stderr.write(packed.stderr ?? '');
  throw new Error(`pack-cli: npm pack did not make ${tarball}`);
}
process.stderr.write(`pack-cli: ${tarball}\n`);
