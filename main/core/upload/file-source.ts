// Reading the file to upload: checked before anything is sent, then streamed in bounded
// chunks so memory stays flat whatever the size.
import { fstatSync, readSync, type Stats, statSync } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { MetadataProblem, type PlanPiece, planStrip, type StripPlan } from '../metadata/strip';

// 256 KiB chunks: a chunk read from the page cache is still in the core's L2 cache (512 KiB on
// the bench machine, more on most) when the socket copies it out, where a 1 MiB chunk has been
// evicted to memory between the two copies. `readSync` of 256 MiB into three rotating buffers:
// 160-173 ms at 1 MiB, 30 ms at 256 or 512 KiB, 31-34 at 128 KiB. `trayshare send` to the
// bench's sink, alternating builds (bench/notes.md, "Read chunks of 256 KiB"): 1 GiB 1279 -> 917 ms
// and 1240 -> 870 ms of CPU, 256 MiB 446 -> 415 ms and 400 -> 330 ms; with the app's thread-pool
// reads, 256 MiB in 350-416 ms at 1 MiB, 279-344 ms at 256 KiB (4 runs each). 1 MiB had been
// chosen against 256 KiB read-then-send, without a read ahead.
export const FILE_CHUNK_BYTES = 256 * 1024;

export type FileProblemCode =
  | 'file_missing'
  | 'not_a_file'
  | 'file_unreadable'
  | 'file_changed'
  | 'metadata_unreadable';

/** The file cannot be sent as it was queued; `code` is one of the contract's input codes. */
export class FileProblem extends Error {
  readonly code: FileProblemCode;
  constructor(code: FileProblemCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FileProblem';
    this.code = code;
  }
}

export interface ExpectedFile {
  path: string;
  name: string;
  expectedSize?: number;
  expectedMtimeMs?: number;
  /**
   * Send it without its location and other hidden details (core/metadata), at the length the
   * queue recorded for it, when it recorded one: the same file bytes give the same plan, so a
   * resumed or repeated send sends identical bytes.
   */
  strip?: { size?: number };
}

export interface OpenedFile {
  handle: FileHandle;
  /** What is sent: the file's size, or its plan's when its details are removed. */
  size: number;
  /** The file's own size on disk, for the change checks. */
  diskSize: number;
  mtimeMs: number;
  /** The ranges and replacements sent instead of the whole file (undefined: the whole file). */
  plan?: StripPlan;
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function fromFsError(error: unknown, name: string): FileProblem {
  const code = errno(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new FileProblem('file_missing', `${name} is no longer there: it was moved or deleted.`, {
      cause: error,
    });
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new FileProblem('file_unreadable', `${name} cannot be read: permission denied.`, {
      cause: error,
    });
  }
  if (code === 'EISDIR') {
    return new FileProblem('not_a_file', `${name} is a folder, not a file.`, { cause: error });
  }
  return new FileProblem('file_unreadable', `${name} cannot be read (${code ?? 'read error'}).`, {
    cause: error,
  });
}

// Integer milliseconds: a queue that stored mtimeMs as JSON may have lost sub-millisecond digits.
function sameMtime(a: number, b: number): boolean {
  return Math.trunc(a) === Math.trunc(b);
}

function changedSince(file: ExpectedFile, st: Stats): boolean {
  if (file.expectedSize !== undefined && st.size !== file.expectedSize) return true;
  if (file.expectedMtimeMs !== undefined && !sameMtime(st.mtimeMs, file.expectedMtimeMs)) {
    return true;
  }
  return false;
}

function changedMessage(name: string): string {
  return `${name} changed after it was queued; share it again to send the current version.`;
}

/**
 * Opens the file for one attempt. The path is stat'ed before opening so a FIFO or device is
 * refused instead of blocking on open; the handle is then stat'ed again so what is checked is
 * what gets read. With `blocking` (the CLI, as for its reads: ReadOptions) both stats run on
 * this thread: for many small files the thread pool's hand-offs cost more than the calls.
 */
export async function openForUpload(
  file: ExpectedFile,
  options: ReadOptions = {},
): Promise<OpenedFile> {
  let before: Stats;
  try {
    before = options.blocking ? statSync(file.path) : await stat(file.path);
  } catch (error) {
    throw fromFsError(error, file.name);
  }
  if (!before.isFile()) {
    throw new FileProblem(
      'not_a_file',
      before.isDirectory()
        ? `${file.name} is a folder, not a file.`
        : `${file.name} is not a regular file.`,
    );
  }
  if (changedSince(file, before)) throw new FileProblem('file_changed', changedMessage(file.name));
  let handle: FileHandle;
  try {
    handle = await open(file.path, 'r');
  } catch (error) {
    throw fromFsError(error, file.name);
  }
  try {
    const st = options.blocking ? fstatSync(handle.fd) : await handle.stat();
    if (!st.isFile() || st.ino !== before.ino || changedSince(file, st)) {
      throw new FileProblem('file_changed', changedMessage(file.name));
    }
    const opened: OpenedFile = { handle, size: st.size, diskSize: st.size, mtimeMs: st.mtimeMs };
    if (file.strip) await withPlan(opened, file);
    return opened;
  } catch (error) {
    await handle.close();
    throw error instanceof FileProblem ? error : fromFsError(error, file.name);
  }
}

async function withPlan(opened: OpenedFile, file: ExpectedFile): Promise<void> {
  let plan: StripPlan | undefined;
  try {
    plan = await planStrip(opened.handle, opened.diskSize, file.name);
  } catch (error) {
    if (error instanceof MetadataProblem) throw new FileProblem(error.code, error.message);
    throw error;
  }
  // A plan of another length than the queue recorded means other bytes than it checked.
  if (!plan || (file.strip?.size !== undefined && plan.size !== file.strip.size)) {
    throw new FileProblem('file_changed', changedMessage(file.name));
  }
  opened.plan = plan;
  opened.size = plan.size;
}

/** Throws file_changed when the open file no longer has the size and mtime it had when opened. */
export async function assertUnchanged(
  opened: OpenedFile,
  name: string,
  options: ReadOptions = {},
): Promise<void> {
  let st: Stats;
  try {
    st = options.blocking ? fstatSync(opened.handle.fd) : await opened.handle.stat();
  } catch (error) {
    throw fromFsError(error, name);
  }
  if (st.size !== opened.diskSize || !sameMtime(st.mtimeMs, opened.mtimeMs)) {
    throw new FileProblem('file_changed', `${name} changed while it was being sent.`);
  }
}

/**
 * A few reused read buffers. A chunk goes back into the ring only when the transport says the
 * socket has finished with it (`release`, from TransportRequest.onBodyWritten); until then it
 * stays lent. When none is free (a transport that never says, or a chunk still on its way) a
 * fresh buffer is used, so the reader never waits on the ring and nothing can deadlock. Reusing
 * buffers keeps the garbage collector out of the way (~0.3 s of CPU per GiB with a fresh
 * buffer per chunk) and memory flat whatever the size.
 */
export class ChunkRing {
  private readonly free: Buffer[] = [];
  // Weak: a chunk a transport never reports is simply collected with its buffer.
  private readonly lent = new WeakMap<Uint8Array, Buffer>();
  constructor(
    readonly chunkBytes = FILE_CHUNK_BYTES,
    private readonly keep = 3,
  ) {}

  /** A buffer of chunkBytes, to be lent as `view(buffer, length)`. */
  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.chunkBytes);
  }

  /** The chunk to hand on: `length` bytes of `buffer`, remembered until released. */
  lend(buffer: Buffer, length: number): Uint8Array {
    const chunk = length === buffer.length ? buffer : buffer.subarray(0, length);
    this.lent.set(chunk, buffer);
    return chunk;
  }

  /** Gives back a buffer nobody will read again (a read that failed or was dropped). */
  drop(buffer: Buffer): void {
    if (this.free.length < this.keep) this.free.push(buffer);
  }

  /** The socket has finished with `chunk`: its buffer may be read into again. */
  release(chunk: Uint8Array | undefined): void {
    if (!chunk) return;
    const buffer = this.lent.get(chunk);
    if (!buffer) return;
    this.lent.delete(chunk);
    this.drop(buffer);
  }
}

export interface ReadOptions {
  /**
   * Read on the calling thread, as curl does, instead of handing each read to libuv's thread
   * pool. Measured on 1 GiB from the page cache (bench/notes.md), the hand-offs (a promise, a
   * futex wake-up each way, the chunk copied on one core and sent from another) are about 0.25 s
   * of CPU per GiB, a third of the CLI's. The price: a read that stalls (a sleeping disk, a
   * network share) stalls the whole event loop, timers included, until it returns. Right for a
   * process that only uploads (the CLI); never for the app's main process.
   */
  blocking?: boolean;
}

/**
 * Exactly `size` bytes of the open file, chunk by chunk. Each chunk is a buffer the caller must
 * not see again after handing it on: with a `ring`, it is reused once released; without, every
 * chunk is fresh. Positional reads on the handle rather than fs.createReadStream: a read stream
 * closes its descriptor when destroyed, even with autoClose false, and this handle must stay
 * open for the last change check and the caller's close. Fewer bytes than `size` (the file
 * shrank while being read) is file_changed: the Content-Length already promised `size`.
 */
export async function* readFileChunks(
  opened: OpenedFile,
  name: string,
  ring: ChunkRing = new ChunkRing(FILE_CHUNK_BYTES, 0),
  options: ReadOptions = {},
): AsyncGenerator<Uint8Array> {
  // The whole file is one range; a plan (core/metadata) is ranges with replacements between.
  const pieces: PlanPiece[] = opened.plan?.pieces ?? [{ at: 0, length: opened.diskSize }];
  if (options.blocking) {
    yield* readChunksBlocking(opened, name, ring, pieces);
    return;
  }
  const chunkBytes = ring.chunkBytes;
  const readAt = async (position: number, end: number): Promise<Uint8Array> => {
    const want = Math.min(chunkBytes, end - position);
    const buffer = ring.take();
    let bytesRead: number;
    try {
      ({ bytesRead } = await opened.handle.read(buffer, 0, want, position));
    } catch (error) {
      throw fromFsError(error, name);
    }
    if (bytesRead === 0) {
      throw new FileProblem('file_changed', `${name} got shorter while it was being sent.`);
    }
    return ring.lend(buffer, bytesRead);
  };
  // The next chunk is read while the caller sends this one. If that read fails (the file got
  // shorter) while the caller is still waiting for the socket, nobody awaits it yet: mark it
  // handled so Node does not end the process, and the failure still reaches the caller at its
  // next await.
  const readAhead = (position: number, end: number): Promise<Uint8Array> => {
    const read = readAt(position, end);
    read.catch(() => undefined);
    return read;
  };
  let next: Promise<Uint8Array> | undefined;
  try {
    for (const piece of pieces) {
      if (!('at' in piece)) {
        yield piece.data;
        continue;
      }
      const end = piece.at + piece.length;
      let position = piece.at;
      next = position < end ? readAhead(position, end) : undefined;
      while (next) {
        const chunk = await next;
        position += chunk.length;
        next = position < end ? readAhead(position, end) : undefined;
        yield chunk;
      }
    }
  } finally {
    // Stopped early (cancel, an early answer): let the read in flight finish before the
    // caller closes the file, and drop its result.
    await next?.catch(() => undefined);
  }
}

/** readFileChunks with `blocking`: one read at a time, each as the caller asks for the chunk. */
async function* readChunksBlocking(
  opened: OpenedFile,
  name: string,
  ring: ChunkRing,
  pieces: readonly PlanPiece[],
): AsyncGenerator<Uint8Array> {
  const fd = opened.handle.fd;
  for (const piece of pieces) {
    if ('at' in piece) yield* readRangeBlocking(fd, name, ring, piece.at, piece.at + piece.length);
    else yield piece.data;
  }
}

function* readRangeBlocking(
  fd: number,
  name: string,
  ring: ChunkRing,
  from: number,
  end: number,
): Generator<Uint8Array> {
  let position = from;
  while (position < end) {
    const want = Math.min(ring.chunkBytes, end - position);
    const buffer = ring.take();
    let bytesRead: number;
    try {
      bytesRead = readSync(fd, buffer, 0, want, position);
    } catch (error) {
      ring.drop(buffer);
      throw fromFsError(error, name);
    }
    if (bytesRead === 0) {
      ring.drop(buffer);
      throw new FileProblem('file_changed', `${name} got shorter while it was being sent.`);
    }
    position += bytesRead;
    yield ring.lend(buffer, bytesRead);
  }
}
