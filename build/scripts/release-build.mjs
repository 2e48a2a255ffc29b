// The release build for one OS, as .github/workflows/release.yml runs it:
//   node build/scripts/release-build.mjs mac|win|linux [--publish always|never]
// Decides from the environment whether to sign and notarise, says so (names only, never a
// value), and runs electron-builder for that OS's targets. Plain Node so it runs on every runner.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What each OS's release holds (issue 24): dmg+zip for both Mac archs, NSIS x64, AppImage+deb x64. */
export const TARGETS = {
  mac: ['--mac', 'dmg', 'zip', '--x64', '--arm64'],
  win: ['--win', 'nsis', '--x64'],
  linux: ['--linux', 'AppImage', 'deb', '--x64'],
};

const SIGNING = {
  mac: ['CSC_LINK', 'CSC_KEY_PASSWORD'],
  win: ['WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD'],
};
const NOTARY = ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'];
const ALL_SECRETS = [...SIGNING.mac, ...SIGNING.win, ...NOTARY];

/**
 * The environment electron-builder gets and what it will do with it. A secret that is not set
 * in the repository reaches the job as an empty string: those are removed, so "empty" means
 * "absent". Each OS keeps only its own certificate (the Mac .p12 never reaches the Windows
 * signer). `problem` is set when the secrets present cannot work together.
 */
export function releasePlan(os, env) {
  const out = { ...env };
  for (const name of ALL_SECRETS) if (!out[name]) delete out[name];
  for (const name of ALL_SECRETS) {
    const mine = (SIGNING[os] ?? []).includes(name) || (os === 'mac' && NOTARY.includes(name));
    if (!mine) delete out[name];
  }
  const has = (names) => names.every((n) => out[n]);
  const some = (names) => names.some((n) => out[n]);
  const notes = [];
  let problem;
  if (os === 'mac') {
    if (has(SIGNING.mac)) {
      notes.push('macOS: signing with the Developer ID certificate in CSC_LINK.');
    } else {
      // Without this, electron-builder would sign with whatever identity the runner's keychain has.
      out.CSC_IDENTITY_AUTO_DISCOVERY = 'false';
      notes.push(
        'macOS: CSC_LINK/CSC_KEY_PASSWORD not set: the app is unsigned (ad hoc); Gatekeeper asks people to right-click → Open, and it cannot update itself.',
      );
    }
    if (has(NOTARY) && has(SIGNING.mac)) {
      notes.push('macOS: notarising with APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD and APPLE_TEAM_ID.');
    } else if (some(NOTARY) && !has(NOTARY)) {
      problem = `macOS: notarising needs all of ${NOTARY.join(', ')}; missing: ${NOTARY.filter((n) => !out[n]).join(', ')}.`;
    } else if (has(NOTARY)) {
      problem = 'macOS: APPLE_* are set but CSC_LINK is not: only a signed app can be notarised.';
    } else {
      notes.push('macOS: APPLE_* not set: not notarised.');
    }
  } else if (os === 'win') {
    if (has(SIGNING.win)) {
      notes.push('Windows: signing the installer and app with WIN_CSC_LINK.');
    } else if (some(SIGNING.win)) {
      problem = 'Windows: WIN_CSC_LINK and WIN_CSC_KEY_PASSWORD go together; one is missing.';
    } else {
      notes.push(
        'Windows: WIN_CSC_LINK/WIN_CSC_KEY_PASSWORD not set: unsigned; SmartScreen warns on first run.',
      );
    }
  } else {
    notes.push('Linux: AppImage and deb are not signed (SHA-256 sums are in latest-linux.yml).');
  }
  return { env: out, notes, problem };
}

/** electron-builder's arguments: this OS's targets, and the repository the release goes to. */
export function builderArgs(os, env, publish) {
  const args = [...TARGETS[os], '--publish', publish];
  // GitHub Actions names the repository it runs in: the release and the update feed go there.
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  if (owner && repo) args.push(`-c.publish.owner=${owner}`, `-c.publish.repo=${repo}`);
  return args;
}

function main() {
  const os = process.argv[2];
  if (!(os in TARGETS)) {
    process.stderr.write(
      'usage: node build/scripts/release-build.mjs mac|win|linux [--publish always|never]\n',
    );
    process.exit(2);
  }
  const i = process.argv.indexOf('--publish');
  const publish = i > 0 ? (process.argv[i + 1] ?? 'never') : 'never';
  const plan = releasePlan(os, process.env);
  for (const note of plan.notes) process.stderr.write(`release: ${note}\n`);
  if (plan.problem) {
    process.stderr.write(`release: ${plan.problem}\n`);
    process.exit(1);
  }
  const cli = join(root, 'node_modules', 'electron-builder', 'cli.js');
  const result = spawnSync(process.execPath, [cli, ...builderArgs(os, process.env, publish)], {
    cwd: root,
    env: plan.env,
    stdio: 'inherit',
  });
  process.exit(result.status ?? 1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
