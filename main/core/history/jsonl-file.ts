// Append-only JSON-lines files that survive a crash mid-write: every record ends with "\n", so a
// last line without one is a torn write and is dropped on read; rewrites go to a temporary file
// that is fsynced and renamed over the old one, so a reader sees the old file or the new, whole.
import { type FileHandle, open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface JsonlContents {
  /** The parsed records, in file order. */
  values: unknown[];
  /** The file did not end with a complete line (a crash mid-write); that tail was dropped. */
  torn: boolean;
  /** Complete lines that were not a JSON object: skipped. */
  bad: number;
}

function parseObject(line: string): object | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function parseJsonl(text: string): JsonlContents {
  const end = text.lastIndexOf('\n');
  const values: unknown[] = [];
  let bad = 0;
  for (const line of text.slice(0, end + 1).split('\n')) {
    if (line.trim() === '') continue;
    const value = parseObject(line);
    if (value === undefined) bad++;
    else values.push(value);
  }
  const tail = text.slice(end + 1);
  const torn = tail.trim() !== '';
  // A record cut exactly before its newline is whole; anything shorter never parses as an object.
  const lastWhole = torn ? parseObject(tail) : undefined;
  if (lastWhole !== undefined) values.push(lastWhole);
  return { values, torn, bad };
}

/** Reads a JSON-lines file; a missing file is empty. */
export async function readJsonl(path: string): Promise<JsonlContents> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { values: [], torn: false, bad: 0 };
    throw err;
  }
  return parseJsonl(text);
}

function toJsonl(values: readonly unknown[]): string {
  return values.map((v) => `${JSON.stringify(v)}\n`).join('');
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// Windows refuses a rename over a file another process (an indexer, an antivirus) holds open
// for a moment; a few short retries ride that out.
async function renameReplacing(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await rename(from, to);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (attempt >= 5 || (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY')) throw err;
      await sleep(20 * 2 ** attempt);
    }
  }
}

// Makes the rename itself durable. Directories cannot be opened for fsync on Windows; there
// the rename is already durable through the file system's own journal.
async function syncDir(dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch {
    // not supported on this platform
  } finally {
    await fh?.close().catch(() => {});
  }
}

/** Replaces `path` with `text` atomically (write-temp, fsync, rename, fsync the folder). */
async function writeFileAtomic(path: string, text: string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(text, 'utf8');
    await fh.sync();
  } catch (err) {
    // A full disk must not also keep a half-written copy that takes the space freed later.
    await fh.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await fh.close();
  try {
    await renameReplacing(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await syncDir(dirname(path));
}

interface PendingAppend {
  text: string;
  count: number;
  sync: boolean;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * An append handle with group commit: appends made in the same turn of the event loop, or while
 * a write or fsync is under way, go out together in the next write, with one fsync if any of
 * them asked for it. Appends and rewrites run one at a time in call order.
 */
export class JsonlAppender {
  private chain: Promise<void> = Promise.resolve();
  private batch: PendingAppend[] = [];
  private flushQueued = false;
  /** The next group's write, waiting for the end of this turn (see `append`). */
  private window: ReturnType<typeof setImmediate> | undefined;
  private closed = false;
  /** Records written since the file was opened or last rewritten. */
  appendedSinceRewrite = 0;

  private constructor(
    readonly path: string,
    private fh: FileHandle,
    /**
     * Where the last whole record ends, kept here rather than asked of the file before every
     * write (an fstat per group: ~10% of a many-small-files share's journal time). This handle
     * is the file's only writer (the queue lock, the history's one store).
     */
    private end: number,
  ) {}

  static async open(path: string): Promise<JsonlAppender> {
    const fh = await open(path, 'a', 0o600);
    try {
      return new JsonlAppender(path, fh, (await fh.stat()).size);
    } catch (err) {
      await fh.close().catch(() => {});
      throw err;
    }
  }

  /** Resolves once the records are written (and on disk, with `sync`). */
  append(values: readonly unknown[], opts: { sync: boolean }): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.path} is closed`));
    if (values.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.batch.push({
        text: toJsonl(values),
        count: values.length,
        sync: opts.sync,
        resolve,
        reject,
      });
      if (!this.flushQueued) {
        this.flushQueued = true;
        // The group stays open until the end of this turn of the event loop: answers that
        // arrived together (several files' outcomes, the next files' "body complete") then share
        // one write and one fsync. A lone record waits one turn, not a timer.
        this.window = setImmediate(() => this.closeWindow());
      }
    });
  }

  /** Sends the open group to the chain (at the end of its turn, or before a rewrite or close). */
  private closeWindow(): void {
    if (this.window === undefined) return;
    clearImmediate(this.window);
    this.window = undefined;
    void this.run(() => this.flush());
  }

  /** Resolves once every record appended before this call is on disk (one fsync). */
  sync(): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.path} is closed`));
    this.closeWindow();
    return this.run(() => this.fh.sync());
  }

  /**
   * Replaces the file with the records `snapshot()` returns, called once every earlier append
   * is written. Records appended later land in the new file; replaying them on top of the
   * snapshot must give the same state (records set values, they do not add to them).
   */
  rewrite(snapshot: () => readonly unknown[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.path} is closed`));
    // Appends made before it are written before it, as the order of calls says.
    this.closeWindow();
    return this.run(async () => {
      const text = toJsonl(snapshot());
      this.appendedSinceRewrite = 0;
      await this.fh.close();
      try {
        await writeFileAtomic(this.path, text);
      } finally {
        this.fh = await open(this.path, 'a', 0o600);
        this.end = (await this.fh.stat()).size;
      }
    });
  }

  /** Waits for pending appends, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closeWindow();
    await this.run(() => this.fh.close());
  }

  private run(op: () => Promise<void>): Promise<void> {
    const result = this.chain.then(op);
    this.chain = result.catch(() => {});
    return result;
  }

  private async flush(): Promise<void> {
    this.flushQueued = false;
    const batch = this.batch;
    this.batch = [];
    const end = this.end;
    try {
      const text = batch.map((b) => b.text).join('');
      await this.fh.appendFile(text, 'utf8');
      this.end = end + Buffer.byteLength(text, 'utf8');
      for (const b of batch) this.appendedSinceRewrite += b.count;
      if (batch.some((b) => b.sync)) await this.fh.sync();
      for (const b of batch) b.resolve();
    } catch (err) {
      // A write cut short (a full disk) leaves part of a line; the next record would be glued
      // to it and both lost on read. Cut the file back to its last whole record.
      await this.fh.truncate(end).catch(() => {});
      this.end = end;
      for (const b of batch) b.reject(err);
    }
  }
}
