// Every write this process makes to a file under some folders, as it happens: a check that looks
// only at the files left at the end misses a secret that was written and later rewritten away
// (the settings file is scrubbed of token-shaped values when it is read, and a sign-out removes
// the workspace record). Import this module FIRST in a test file (a bare `import` that the import
// sorter leaves in place): libraries such as `conf` (through stubborn-fs) keep references to the
// fs functions they load, so the hook must be in place before they load. `expectWatched` then
// proves the hook saw the writes: a file under the folders that changed without a recorded
// write fails the test, so a write path the hook does not cover cannot hide a leak.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Write {
  path: string;
  data: Buffer;
}

interface Recorder {
  dirs: string[];
  writes: Write[];
  /** Paths a recorded file was renamed to. */
  renamedTo: Set<string>;
}

let recorder: Recorder | undefined;
const fdPaths = new Map<number, string>();
const handlePaths = new WeakMap<object, string>();

function pathOf(p: unknown): string | undefined {
  if (typeof p === 'string') return resolve(p);
  if (p instanceof URL) return resolve(fileURLToPath(p));
  if (Buffer.isBuffer(p)) return resolve(p.toString());
  return undefined;
}

function watched(path: string | undefined): path is string {
  return (
    !!recorder &&
    !!path &&
    recorder.dirs.some((d) => path === d || path.startsWith(`${d}/`) || path.startsWith(`${d}\\`))
  );
}

/** The bytes of a write's data argument; an unreadable kind is recorded as such, never skipped. */
function bytesOf(data: unknown, encoding?: unknown): Buffer {
  if (typeof data === 'string')
    return Buffer.from(data, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(`[a write this hook cannot read: ${Object.prototype.toString.call(data)}]`);
}

/** writeSync/write's (fd, buffer, offset?, length?) or (fd, string, position?, encoding?). */
function chunkOf(args: unknown[]): Buffer {
  const [, data, a, b] = args;
  if (typeof data === 'string') return bytesOf(data, b);
  const all = bytesOf(data);
  if (typeof a === 'object' && a !== null) {
    const o = a as { offset?: number; length?: number };
    const offset = o.offset ?? 0;
    return all.subarray(offset, offset + (o.length ?? all.length - offset));
  }
  const offset = typeof a === 'number' ? a : 0;
  return all.subarray(offset, offset + (typeof b === 'number' ? b : all.length - offset));
}

function record(path: string | undefined, data: Buffer): void {
  if (watched(path)) recorder!.writes.push({ path, data: Buffer.from(data) });
}

type Fn = (...args: never[]) => unknown;

/** Replaces obj[name] with a wrapper that first calls `before`; keeps promisify's symbols. */
function wrap<T extends object>(
  obj: T,
  name: string,
  before: (args: unknown[]) => void,
  after?: (result: unknown, args: unknown[]) => unknown,
): void {
  const target = obj as Record<string, Fn>;
  const original = target[name];
  if (typeof original !== 'function') return;
  const wrapper = function (this: unknown, ...args: unknown[]) {
    before(args);
    const result = original.apply(this, args as never[]);
    return after ? after(result, args) : result;
  };
  for (const key of Object.getOwnPropertySymbols(original))
    Object.defineProperty(wrapper, key, Object.getOwnPropertyDescriptor(original, key)!);
  target[name] = wrapper as Fn;
}

const fileFlags = (flags: unknown) =>
  typeof flags === 'string' ? /[wa+]/.test(flags) : typeof flags === 'number' && (flags & 3) !== 0;

function renamed(from: unknown, to: unknown): void {
  const src = pathOf(from);
  const dest = pathOf(to);
  if (!recorder || !watched(dest) || !src) return;
  if (recorder.renamedTo.has(src) || recorder.writes.some((w) => w.path === src))
    recorder.renamedTo.add(dest);
}

function install(): void {
  const mark = Symbol.for('trayshare.written-files');
  const marked = fs as unknown as Record<symbol, boolean>;
  if (marked[mark]) return;
  marked[mark] = true;
  const p = fs.promises;
  for (const name of ['writeFileSync', 'appendFileSync'] as const)
    wrap(fs, name, (a) => {
      if (typeof a[0] === 'number') record(fdPaths.get(a[0]), bytesOf(a[1], a[2]));
      else
        record(
          pathOf(a[0]),
          bytesOf(
            a[1],
            typeof a[2] === 'object' ? (a[2] as { encoding?: string } | null)?.encoding : a[2],
          ),
        );
    });
  for (const name of ['writeFile', 'appendFile'] as const) {
    wrap(fs, name, (a) => {
      if (typeof a[0] === 'number') record(fdPaths.get(a[0]), bytesOf(a[1]));
      else record(pathOf(a[0]), bytesOf(a[1]));
    });
    wrap(p, name, (a) => {
      const path =
        typeof a[0] === 'object' &&
        a[0] !== null &&
        !(a[0] instanceof URL) &&
        !Buffer.isBuffer(a[0])
          ? handlePaths.get(a[0])
          : pathOf(a[0]);
      record(path, bytesOf(a[1]));
    });
  }
  for (const name of ['writeSync', 'write'] as const)
    wrap(fs, name, (a) => record(fdPaths.get(a[0] as number), chunkOf(a)));
  for (const name of ['writevSync', 'writev'] as const)
    wrap(fs, name, (a) =>
      record(
        fdPaths.get(a[0] as number),
        Buffer.concat((a[1] as ArrayBufferView[]).map((b) => bytesOf(b))),
      ),
    );
  wrap(
    fs,
    'openSync',
    () => {},
    (fd, a) => {
      const path = pathOf(a[0]);
      if (typeof fd === 'number' && path && fileFlags(a[1])) fdPaths.set(fd, path);
      return fd;
    },
  );
  wrap(fs, 'open', (a) => {
    const cb = a.at(-1);
    const path = pathOf(a[0]);
    if (typeof cb !== 'function' || !path || !fileFlags(a[1])) return;
    a[a.length - 1] = (err: unknown, fd: number) => {
      if (!err) fdPaths.set(fd, path);
      (cb as (e: unknown, fd: number) => void)(err, fd);
    };
  });
  wrap(
    p,
    'open',
    () => {},
    (result, a) => {
      const path = pathOf(a[0]);
      if (!path || !fileFlags(a[1])) return result;
      return (result as Promise<object>).then((handle) => {
        handlePaths.set(handle, path);
        return handle;
      });
    },
  );
  // A closed descriptor's number is reused: forget its path.
  wrap(fs, 'closeSync', (a) => fdPaths.delete(a[0] as number));
  wrap(fs, 'close', (a) => fdPaths.delete(a[0] as number));
  // A file renamed or hard-linked into place carries what was written under its first name.
  for (const name of ['renameSync', 'rename', 'linkSync', 'link'] as const)
    wrap(fs, name, (a) => renamed(a[0], a[1]));
  for (const name of ['rename', 'link'] as const) wrap(p, name, (a) => renamed(a[0], a[1]));
  syncBuiltinESMExports();
}

/** FileHandle methods live on a prototype only an open handle shows. */
async function installOnFileHandles(): Promise<void> {
  const probe = await fs.promises.open(process.execPath, 'r');
  const proto = Object.getPrototypeOf(probe) as object;
  await probe.close();
  const marked = proto as Record<symbol, boolean>;
  const mark = Symbol.for('trayshare.written-files');
  if (marked[mark]) return;
  marked[mark] = true;
  for (const name of ['write', 'writev', 'writeFile', 'appendFile'] as const) {
    const target = proto as Record<string, Fn>;
    const original = target[name]!;
    target[name] = function (this: object, ...args: unknown[]) {
      const path = handlePaths.get(this);
      if (name === 'writev')
        record(path, Buffer.concat((args[0] as ArrayBufferView[]).map((b) => bytesOf(b))));
      else if (name === 'write') record(path, chunkOf([undefined, ...args]));
      else record(path, bytesOf(args[0]));
      return original.apply(this, args as never[]);
    } as Fn;
  }
}

install();
await installOnFileHandles();

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? filesUnder(path) : [path];
  });
}

export interface WriteWatch {
  /** Every write so far, in order. */
  writes(): Write[];
  /** Each file's written bytes, joined in write order (a secret split over two writes shows). */
  byFile(): Map<string, string>;
  /**
   * Files under the folders that are new or changed since the watch began without any write the
   * hook saw: proof the hook covers how this code writes. Stops the watch.
   */
  unseen(): string[];
}

/** Starts recording every write under `dirs` (absolute folders). One watch at a time. */
export function watchWrites(dirs: string[]): WriteWatch {
  if (recorder) throw new Error('a write watch is already running');
  const roots = dirs.map((d) => resolve(d));
  const before = new Map(roots.flatMap(filesUnder).map((f) => [f, fs.statSync(f).mtimeMs]));
  const rec: Recorder = { dirs: roots, writes: [], renamedTo: new Set() };
  recorder = rec;
  return {
    writes: () => [...rec.writes],
    byFile() {
      const out = new Map<string, string>();
      for (const w of rec.writes)
        out.set(w.path, (out.get(w.path) ?? '') + w.data.toString('utf8'));
      return out;
    },
    unseen() {
      if (recorder === rec) recorder = undefined;
      const seen = new Set([...rec.writes.map((w) => w.path), ...rec.renamedTo]);
      return roots
        .flatMap(filesUnder)
        .filter((f) => before.get(f) !== fs.statSync(f).mtimeMs && !seen.has(f));
    },
  };
}
