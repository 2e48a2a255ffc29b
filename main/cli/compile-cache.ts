// Where the CLI keeps Node's compile cache (V8's code cache of the bundled modules, reused from
// one run to the next so they are not parsed and compiled again: ~15 ms of every start). Only
// node:os and node:path here: this is loaded before the cache is on, so it is compiled afresh
// at every start.
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/**
 * The per-user cache folder of the platform, joined with the product name and "compile-cache":
 * `%LOCALAPPDATA%\Trayshare\Cache\compile-cache` on Windows (caches are not roamed),
 * `~/Library/Caches/Trayshare/compile-cache` on macOS, `$XDG_CACHE_HOME/trayshare/compile-cache`
 * (else `~/.cache/…`) elsewhere. `NODE_COMPILE_CACHE` wins when set, as Node's docs ask of a
 * program that enables the cache itself.
 */
export function compileCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const override = env.NODE_COMPILE_CACHE?.trim();
  if (override) return override;
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA || win32.join(env.USERPROFILE || homedir(), 'AppData', 'Local');
    return win32.join(local, 'Trayshare', 'Cache', 'compile-cache');
  }
  const home = env.HOME || homedir();
  if (platform === 'darwin')
    return posix.join(home, 'Library', 'Caches', 'Trayshare', 'compile-cache');
  return posix.join(env.XDG_CACHE_HOME || posix.join(home, '.cache'), 'trayshare', 'compile-cache');
}
