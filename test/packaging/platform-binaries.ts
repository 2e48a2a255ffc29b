// Which native builds each supported desktop needs, read from package-lock.json, and whether
// npm's plan for that desktop (`npm install --dry-run --os --cpu`) installs them. A lock made
// on one OS can silently lack another OS's build (npm/cli#4828) when the registry has no
// build of that exact version: electron-vite then fails there with "Cannot find module
// @rollup/rollup-…".

export interface Platform {
  os: string;
  cpu: string;
  /** npm picks glibc or musl builds by the running libc; desktops run glibc. */
  libc?: string;
}

export const DESKTOPS: readonly Platform[] = [
  { os: 'darwin', cpu: 'arm64' },
  { os: 'darwin', cpu: 'x64' },
  { os: 'win32', cpu: 'x64' },
  { os: 'linux', cpu: 'x64', libc: 'glibc' },
];

interface LockEntry {
  version?: string;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optional?: boolean;
  dev?: boolean;
  optionalDependencies?: Record<string, string>;
}

export interface Lock {
  packages: Record<string, LockEntry>;
}

export interface PlanChange {
  action: 'add' | 'remove' | 'change';
  name: string;
  version: string;
}

/** `add @rollup/rollup-darwin-arm64 4.67.4` lines of npm's dry-run output. */
export function parseDryRun(output: string): PlanChange[] {
  const changes: PlanChange[] = [];
  for (const line of output.split('\n')) {
    const m = /^(add|remove|change) (\S+) (\S+)/.exec(line.trim());
    if (m) changes.push({ action: m[1] as PlanChange['action'], name: m[2]!, version: m[3]! });
  }
  return changes;
}

function matches(list: string[] | undefined, value: string | undefined): boolean {
  if (!list || value === undefined) return true;
  const allowed = list.filter((v) => !v.startsWith('!'));
  if (list.includes(`!${value}`)) return false;
  return allowed.length === 0 || allowed.includes(value);
}

function fitsPlatform(entry: LockEntry, p: Platform): boolean {
  return matches(entry.os, p.os) && matches(entry.cpu, p.cpu) && matches(entry.libc, p.libc);
}

/** Node's lookup from a package folder in the lock: its own node_modules, then each parent's. */
function resolve(lock: Lock, from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut >= 0 ? dir.slice(0, cut) : '';
  }
}

export interface NativeNeed {
  /** The package that loads a native build (rollup, @biomejs/biome, esbuild…). */
  parent: string;
  version: string;
  /** Its optional dependencies that are builds for this platform: name and folder in the lock. */
  builds: { name: string; at: string }[];
}

/**
 * Packages whose optional dependencies are per-platform builds (their lock entries carry `os`
 * or `cpu`), with the builds the lock holds for `platform`. A need with no builds means the
 * lock cannot install that package on that platform.
 */
export function nativeNeeds(lock: Lock, platform: Platform): NativeNeed[] {
  const needs: NativeNeed[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const optional = Object.keys(entry.optionalDependencies ?? {});
    if (optional.length === 0) continue;
    const resolved = optional.map((name) => ({ name, at: resolve(lock, path, name) }));
    // Platform-specific builds are named in the lock with os/cpu; those the lock lacks are
    // exactly what goes missing, so a package counts when any one of its builds is there.
    const platformSpecific = resolved.filter(({ at }) => {
      const e = at ? lock.packages[at] : undefined;
      return e && (e.os || e.cpu);
    });
    if (platformSpecific.length < 2) continue;
    const builds = platformSpecific
      .filter(({ at }) => fitsPlatform(lock.packages[at!]!, platform))
      .map(({ name, at }) => ({ name, at: at! }));
    needs.push({
      parent: path.replace(/^.*node_modules\//, ''),
      version: entry.version ?? '?',
      builds,
    });
  }
  return needs;
}

/** What is wrong with the plan for one platform, in words a developer can act on. */
export function missingBuilds(
  lock: Lock,
  platform: Platform,
  plan: PlanChange[],
  /** Whether a lock folder (`node_modules/vite/node_modules/…`) is installed on this machine. */
  installedHere: (lockPath: string) => boolean,
): string[] {
  const added = new Set(plan.filter((c) => c.action === 'add').map((c) => c.name));
  const removed = new Set(plan.filter((c) => c.action === 'remove').map((c) => c.name));
  const problems: string[] = [];
  const label = `${platform.os}-${platform.cpu}`;
  for (const need of nativeNeeds(lock, platform)) {
    if (need.builds.length === 0) {
      problems.push(`${need.parent}@${need.version}: package-lock.json has no build for ${label}`);
      continue;
    }
    const planned = need.builds.some(
      (b) => added.has(b.name) || (installedHere(b.at) && !removed.has(b.name)),
    );
    if (!planned) {
      problems.push(
        `${need.parent}@${need.version}: npm's plan for ${label} installs none of ${need.builds.map((b) => b.name).join(', ')}`,
      );
    }
  }
  return problems;
}
