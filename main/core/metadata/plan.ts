// What leaves instead of a file's own bytes when its hidden details are removed: a list of
// byte ranges of the file, in order, with small replacement byte strings between them. It is
// worked out from the file's structure (markers, chunks, boxes) without reading pixel or media
// data, so its total is the exact length sent, known before the first byte, and the pixel and
// media bytes are copied from disk as they are. The same file bytes always give the same plan:
// a resumed or repeated send sends identical bytes.

import type { FileHandle } from 'node:fs/promises';
import { METADATA_UNREADABLE } from '../../portable/metadata-refusal';

export type PlanPiece = { at: number; length: number } | { data: Uint8Array };

/** What was taken out, in words a person reads ("location", "thumbnail"). */
export type RemovedDetail =
  | 'location'
  | 'serial number'
  | 'owner name'
  | 'thumbnail'
  | 'camera details'
  | 'XMP'
  | 'IPTC'
  | 'comments';

export interface StripPlan {
  format: 'JPEG' | 'PNG' | 'WebP' | 'MP4/MOV' | 'HEIC/AVIF';
  pieces: PlanPiece[];
  /** The length that is sent: the sum of the pieces. */
  size: number;
  /** What the file held that does not leave; empty when it held nothing to remove. */
  removed: RemovedDetail[];
}

/**
 * The box types an ISO base media file (MP4, MOV, HEIC, AVIF) may start with: only a file whose
 * first box is one of them is read as one (isobmff.ts).
 */
export const ISOBMFF_TOP_LEVEL: ReadonlySet<string> = new Set([
  'ftyp',
  'moov',
  'mdat',
  'free',
  'skip',
  'wide',
  'pnot',
  'meta',
]);

/** The file's structure cannot be read safely: it is damaged, truncated or not what it claims. */
export class MetadataProblem extends Error {
  readonly code = METADATA_UNREADABLE;
  constructor(message: string) {
    super(message);
    this.name = 'MetadataProblem';
  }
}

/**
 * Reads small pieces of an open file at any position through one window, so a pass over many
 * small headers (a PNG's chunks, a video's boxes) costs a few reads, not one per header.
 */
export class HeaderReader {
  private window = Buffer.alloc(0);
  private windowAt = 0;
  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
    readonly name: string,
    private readonly windowBytes = 64 * 1024,
  ) {}

  /** Exactly `length` bytes at `at`, or a MetadataProblem saying the file ends too soon. */
  async bytes(at: number, length: number, what: string): Promise<Buffer> {
    if (at < 0 || length < 0 || at + length > this.size) {
      throw this.damaged(`${what} runs past the end of the file`);
    }
    if (at >= this.windowAt && at + length <= this.windowAt + this.window.length) {
      return this.window.subarray(at - this.windowAt, at - this.windowAt + length);
    }
    const want = Math.min(Math.max(length, this.windowBytes), this.size - at);
    const buffer = Buffer.allocUnsafe(want);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await this.handle.read(buffer, got, want - got, at + got);
      if (bytesRead === 0) throw this.damaged(`${what} runs past the end of the file`);
      got += bytesRead;
    }
    this.window = buffer;
    this.windowAt = at;
    return buffer.subarray(0, length);
  }

  damaged(what: string): MetadataProblem {
    return new MetadataProblem(
      `${this.name} looks damaged (${what}), so its location and other hidden details cannot be removed safely.`,
    );
  }
}

/** Builds a plan: copies of the file's ranges (neighbouring ones merged) and replacements. */
export class PlanBuilder {
  readonly pieces: PlanPiece[] = [];
  readonly removed = new Set<RemovedDetail>();
  copy(at: number, length: number): void {
    if (length <= 0) return;
    const last = this.pieces[this.pieces.length - 1];
    if (last && 'at' in last && last.at + last.length === at) last.length += length;
    else this.pieces.push({ at, length });
  }
  put(data: Uint8Array): void {
    if (data.length > 0) this.pieces.push({ data });
  }
  remove(...details: RemovedDetail[]): void {
    for (const d of details) this.removed.add(d);
  }
  done(format: StripPlan['format']): StripPlan {
    const size = this.pieces.reduce((sum, p) => sum + ('at' in p ? p.length : p.data.length), 0);
    return { format, pieces: this.pieces, size, removed: [...this.removed].sort() };
  }
}
