// Checks, before `npm start` / `npm run demo` launch Electron, the two ways it dies at once on
// Linux, and says the exact fix. Never adds --no-sandbox: that would turn Chromium's sandbox off
// without anyone deciding it.
// - Run as root: Chromium refuses to start without --no-sandbox.
// - Ubuntu 23.10+ / 24.04 restrict unprivileged user namespaces through AppArmor
//   (kernel.apparmor_restrict_unprivileged_userns = 1), so Chromium falls back to the SUID
//   helper chrome-sandbox, which npm installs neither owned by root nor SUID: Electron aborts
//   with "The SUID sandbox helper binary was found, but is not configured correctly"
//   (electron/electron#42510, #41066). Packaged debs set the helper up when installed.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const RESTRICT_USERNS = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';

/**
 * @param {{ platform: string, uid: number | undefined, electronPath: string,
 *   readText(path: string): string | null,
 *   statMode(path: string): { mode: number, uid: number } | null }} env
 * @returns {string | null} what to do, or null when Electron can start
 */
export function linuxStartProblem(env) {
  if (env.platform !== 'linux') return null;
  if (env.uid === 0) {
    return [
      'Electron will not start as root (Chromium needs its sandbox, and Trayshare does not turn it off).',
      'Run `npm start` as your own user. To try the app in a root-only container, use the browser harness instead: npm run harness -- --port 0',
    ].join('\n');
  }
  if (env.readText(RESTRICT_USERNS)?.trim() !== '1') return null;
  const helper = join(env.electronPath, '..', 'chrome-sandbox');
  const stat = env.statMode(helper);
  if (!stat) return null;
  const setuidRoot = stat.uid === 0 && (stat.mode & 0o4000) !== 0 && (stat.mode & 0o111) !== 0;
  if (setuidRoot) return null;
  return [
    'This Linux restricts unprivileged user namespaces (Ubuntu 23.10 and later), so Electron needs its',
    'sandbox helper to be owned by root and setuid. Run once, after each `npm install` of Electron:',
    '',
    `  sudo chown root:root '${helper}' && sudo chmod 4755 '${helper}'`,
    '',
    'The installed .deb package does this by itself. See docs/development.md ("Ubuntu 23.10 and',
    'later"); the alternative is an AppArmor profile for this Electron binary.',
  ].join('\n');
}

/** The same check on this machine, for the scripts that launch Electron. */
export function startProblemHere(electronPath) {
  return linuxStartProblem({
    platform: process.platform,
    uid: process.getuid?.(),
    electronPath,
    readText: (path) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return null;
      }
    },
    statMode: (path) => {
      try {
        const s = statSync(path);
        return { mode: s.mode, uid: s.uid };
      } catch {
        return null;
      }
    },
  });
}
