// The settings file, config.json in the user-data folder. Writes go through the injected store:
// electron-store in the app, `conf` (the store beneath electron-store) in the CLI, so both write
// the same file the same way (atomically). Reads are done here, from the raw text, because conf
// quietly turns some broken files into {} (a JSON list, null, a number) and throws on others;
// reading the text ourselves lets every broken file be noticed, kept aside and reported.
// Neither store's own `schema` (JSON Schema via ajv) is used: a violation throws inside the
// store's constructor or setter, and it cannot say which workspace was bad. zod (schema.ts) checks
// each item, so valid parts survive, and it is the same library the API arguments use.

import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import Conf from 'conf';
import { errorMessage } from '../../portable/error-message';
import { damagedAt, damagedName } from '../damaged-name';
import { type Repair, repairSettings } from './repair';
import { emptySettings, type Settings } from './schema';
import { withSettingsLock } from './settings-lock';
import { scrubTokens, scrubTokensInText } from './tokens-in-file';

/** What openSettingsService hands the store factory. Both conf and electron-store accept it. */
interface StoreOptions {
  cwd: string;
  /** conf's name for the file (config → config.json). */
  configName: string;
  /** electron-store's name for the same thing (it maps `name` to `configName`). */
  name: string;
  fileExtension: 'json';
  /** No "-nodejs" suffix: only used when cwd is not given, but keeps conf and the app aligned. */
  projectSuffix: '';
  /** Never let the store wipe a broken file: this module keeps it aside and reports it. */
  clearInvalidConfig: false;
  accessPropertiesByDotNotation: false;
}

/** The part of conf / electron-store this module uses. */
export interface ConfLike {
  readonly path: string;
  store: Record<string, unknown>;
}

export type StoreFactory = (options: StoreOptions) => ConfLike;

/** The CLI's (and the tests') store: conf, pointed at the app's user-data folder. */
export const confStoreFactory: StoreFactory = (options) =>
  new Conf<Record<string, unknown>>(options);

const CONFIG_NAME = 'config';

/** The settings file of the user-data folder `dir` (readers that must not write or repair it). */
export function settingsFilePath(dir: string): string {
  return join(resolve(dir), `${CONFIG_NAME}.json`);
}

function storeOptions(dir: string): StoreOptions {
  return {
    cwd: dir,
    configName: CONFIG_NAME,
    name: CONFIG_NAME,
    fileExtension: 'json',
    projectSuffix: '',
    clearInvalidConfig: false,
    accessPropertiesByDotNotation: false,
  };
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A file name for a kept copy that does not exist yet (damaged-name.ts: config.json.damaged-TIME). */
function keptName(path: string, now: number, attempt: number): string {
  return damagedName(path, now, attempt);
}

// Copies kept by earlier versions, before every damaged file had one rule.
const KEPT_BEFORE = new RegExp(
  `^${CONFIG_NAME}\\.corrupt-(\\d{4}-\\d\\d-\\d\\d)T(\\d\\d)-(\\d\\d)-(\\d\\d)-(\\d{3})Z(?:-\\d+)?\\.json$`,
);

function keptAt(name: string): number | undefined {
  const now = damagedAt(name, `${CONFIG_NAME}.json`);
  if (now !== undefined) return now;
  const m = KEPT_BEFORE.exec(name);
  return m ? Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`) : undefined;
}

/**
 * The kept copies of broken settings files in `dir` that were set aside at or after `since`
 * (ms), newest first: settings (workspaces among them) lost to a repair since then.
 */
export function keptCopiesSince(dir: string, since: number): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const found: { path: string; at: number }[] = [];
  for (const name of names) {
    const at = keptAt(name);
    if (at !== undefined && at >= since) found.push({ path: join(dir, name), at });
  }
  return found.sort((a, b) => b.at - a.at).map((f) => f.path);
}

export class SettingsFile {
  readonly path: string;
  private readonly dir: string;
  private readonly factory: StoreFactory;
  private store: ConfLike | undefined;
  private readonly now: () => number;
  private readonly notices: string[] = [];
  private readonly noticeListeners = new Set<() => void>();
  /**
   * The last clean read: the same text gives the same settings, so a read whose text is
   * unchanged skips the parse and the schema's repair (the queue reads the settings at each
   * scheduling pass). Each read still gets its own copy, as a fresh parse would.
   */
  private lastClean: { text: string; settings: Settings } | undefined;
  private readonly lockWaitMs: number | undefined;
  /** How deep in locked() this process is; notices are told once the lock is released. */
  private depth = 0;
  private noticeWaiting = false;

  constructor(
    dir: string,
    factory: StoreFactory,
    now: () => number = Date.now,
    /** How long a change waits for another process's (settings-lock.ts; tests shorten it). */
    lockWaitMs?: number,
  ) {
    this.dir = resolve(dir);
    this.path = join(this.dir, `${CONFIG_NAME}.json`);
    this.factory = factory;
    this.now = now;
    this.lockWaitMs = lockWaitMs;
    try {
      // The folder is there from the start, as Electron's userData is (people look for it).
      mkdirSync(this.dir, { recursive: true });
    } catch {
      // Reading then finds no file (defaults); a write reports the real problem.
    }
  }

  /**
   * The store is made on the first write, after read() has repaired the file: conf and
   * electron-store read the file in their constructors and throw on invalid JSON.
   */
  private writer(): ConfLike {
    if (!this.store) {
      const store = this.factory(storeOptions(this.dir));
      if (resolve(store.path) !== this.path) {
        throw new Error(`The settings store writes ${store.path}, not ${this.path}.`);
      }
      this.store = store;
    }
    return this.store;
  }

  /** What was reset or removed when the file was found broken (undefined when nothing was). */
  notice(): string | undefined {
    return this.notices.length > 0 ? this.notices.join(' ') : undefined;
  }

  onNotice(listener: () => void): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  /**
   * Runs `work` holding the settings file's lock (settings-lock.ts), so no other process reads
   * and writes the file meanwhile: a change reads the file inside it, and what another process
   * saved a moment ago is what it changes. `work` must be synchronous. Listeners hear of
   * notices once the lock is released, so none of them can start a change inside this one.
   */
  locked<T>(work: () => T): T {
    this.depth++;
    try {
      return withSettingsLock(this.path, work, { waitMs: this.lockWaitMs });
    } finally {
      this.depth--;
      if (this.depth === 0 && this.noticeWaiting) {
        this.noticeWaiting = false;
        for (const listener of this.noticeListeners) listener();
      }
    }
  }

  /**
   * The current settings. A broken file is moved aside (kept), the repaired settings are written
   * in its place, and notice() says what happened. Never throws for a bad or unreadable file.
   */
  read(): Settings {
    const first = this.look();
    if ('settings' in first) return first.settings;
    if (this.depth > 0) return this.fix(first);
    try {
      // Repaired holding the lock, after a second look: two processes that both found the file
      // broken would otherwise each set a file aside, the second one the first one's repair.
      return this.locked(() => {
        const again = this.look();
        return 'settings' in again ? again.settings : this.fix(again);
      });
    } catch (error) {
      const reason = errorMessage(error);
      this.addNotice(
        `Trayshare could not save its repaired settings to ${this.path} (${reason}); using what could be read for now.`,
      );
      return first.repair.settings;
    }
  }

  /** The file as it is now: settings that need no writing, or what a repair must write. */
  private look(): { settings: Settings } | Broken {
    let text: string | undefined;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return { settings: emptySettings() };
      this.addNotice(
        `Trayshare could not read its settings file ${this.path} (${errorCode(error) ?? String(error)}), so it is using default settings for now; changes may not be saved until the file can be read.`,
      );
      return { settings: emptySettings() };
    }
    if (this.lastClean?.text === text)
      return { settings: structuredClone(this.lastClean.settings) };
    let parsed: unknown;
    try {
      // An empty file (a crash between create and write) counts as no settings yet.
      parsed = text.trim() === '' ? undefined : JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (error) {
      const reason = errorMessage(error);
      return {
        text,
        parsed: undefined,
        repair: repairInvalidJson(`it is not valid JSON (${reason})`),
      };
    }
    const repair = repairSettings(parsed);
    if (!repair.rewrite) {
      this.lastClean = { text, settings: structuredClone(repair.settings) };
      return { settings: repair.settings };
    }
    return { text, parsed, repair };
  }

  /** Writes the repair of a file that needs one (holding the lock). */
  private fix({ text, parsed, repair }: Broken): Settings {
    if (repair.problems.length === 0 && repair.tokenFields.length === 0) {
      // Migrated or filled in: nothing was lost, so there is nothing to keep or report.
      this.writeQuietly(repair.settings);
      return repair.settings;
    }
    return this.replaceBroken(text, parsed, repair);
  }

  /** Saves settings, holding the lock (see locked()); throws when the file cannot be written. */
  write(settings: Settings): void {
    // Written without the lock, a copy read earlier could undo another process's change.
    if (this.depth === 0)
      throw new Error(`The settings file ${this.path} was written without its lock.`);
    this.writer().store = settings as unknown as Record<string, unknown>;
  }

  private writeQuietly(settings: Settings): void {
    try {
      this.write(settings);
    } catch (error) {
      this.addNotice(
        `Trayshare could not save its repaired settings to ${this.path} (${errorCode(error) ?? String(error)}).`,
      );
    }
  }

  private replaceBroken(text: string, parsed: unknown, repair: Repair): Settings {
    let kept: string | undefined;
    if (repair.problems.length > 0) {
      try {
        kept = this.keepAside(text, parsed);
      } catch (error) {
        if (errorCode(error) === 'ENOENT') {
          // Another process (the app or the CLI) moved it first: read what it wrote instead.
          return this.read();
        }
        this.addNotice(
          `Trayshare's settings file ${this.path} is broken (${repair.problems.join('; ')}) and could not be moved aside (${errorCode(error) ?? String(error)}); using what could be read.`,
        );
        return repair.settings;
      }
    }
    this.writeQuietly(repair.settings);
    this.addNotice(describe(repair, kept));
    return repair.settings;
  }

  /** Keeps the broken file beside the new one; token-shaped values are blanked in the copy. */
  private keepAside(text: string, parsed: unknown): string {
    const path = this.path;
    const scrubbed =
      parsed === undefined
        ? scrubTokensInText(text)
        : (() => {
            const marked = scrubTokens(parsed, 'mark');
            return marked.found.length > 0
              ? { text: `${JSON.stringify(marked.data, null, '\t')}\n`, found: true }
              : { text, found: false };
          })();
    for (let attempt = 0; ; attempt++) {
      const target = keptName(path, this.now(), attempt);
      try {
        if (scrubbed.found) {
          writeFileSync(target, scrubbed.text, { flag: 'wx', mode: 0o600 });
          unlinkSync(path);
        } else {
          // rename keeps the exact bytes; check first so an older kept file is never replaced.
          writeFileSync(target, '', { flag: 'wx' });
          renameSync(path, target);
        }
        return target;
      } catch (error) {
        if (errorCode(error) !== 'EEXIST' || attempt > 100) throw error;
      }
    }
  }

  private addNotice(message: string): void {
    if (this.notices.includes(message)) return;
    this.notices.push(message);
    if (this.depth > 0) this.noticeWaiting = true;
    else for (const listener of this.noticeListeners) listener();
  }
}

/** A file whose settings must be written back: migrated, filled in, or repaired. */
interface Broken {
  text: string;
  parsed: unknown;
  repair: Repair;
}

function repairInvalidJson(problem: string): Repair {
  return {
    settings: emptySettings(),
    problems: [problem],
    tokenFields: [],
    reset: true,
    rewrite: true,
  };
}

function describe(repair: Repair, kept: string | undefined): string {
  const parts: string[] = [];
  const list = repair.problems.join('; ');
  if (repair.problems.length > 0) {
    parts.push(
      repair.reset
        ? `Trayshare's settings file could not be used (${list}), so settings were reset to their defaults.`
        : `Trayshare's settings file had errors: ${list}. Everything else was kept.`,
    );
    if (kept) parts.push(`The broken file was kept as ${kept}.`);
  }
  if (repair.tokenFields.length > 0) {
    parts.push(
      `A token was found in the settings file (at ${repair.tokenFields.join(', ')}) and removed without being used: tokens are kept only in the OS keychain. Save it again in Settings or with \`trayshare login\`.`,
    );
  }
  return parts.join(' ');
}
