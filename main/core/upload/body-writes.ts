// How a transport hands body chunks to its socket so the engine learns, as the socket takes
// them, how many bytes are out and which chunk buffers it may reuse. A chunk is written in
// slices, each with its own write callback: progress then moves at least several times a second
// on a slow link, while on a fast one the slices grow to the whole chunk and cost nothing extra.

import type { TransportRequest } from './transport';

const MIN_SLICE = 16 * 1024;
const MAX_SLICE = 1024 * 1024;
const FIRST_SLICE = 128 * 1024;
/** Aim for a callback about this often: several progress updates a second, whatever the rate. */
const TARGET_GAP_MS = 100;

export interface BodyWriter {
  /** The chunk cut into the slices to write now (views, no copies). */
  slices(chunk: Uint8Array): Uint8Array[];
  /** Call from a slice's successful write callback; `chunk` on its last slice. */
  written(bytes: number, chunk: Uint8Array | undefined): void;
}

/** The largest power of two at most `bytes`, within the slice bounds. */
function fitSlice(bytes: number): number {
  let size = MIN_SLICE;
  while (size * 2 <= bytes && size < MAX_SLICE) size *= 2;
  return size;
}

export function createBodyWriter(
  req: Pick<TransportRequest, 'onBodyWritten'>,
  now: () => number = () => performance.now(),
): BodyWriter {
  let slice = FIRST_SLICE;
  let last = now();
  return {
    slices(chunk) {
      if (chunk.length <= slice) return [chunk];
      const out: Uint8Array[] = [];
      for (let at = 0; at < chunk.length; at += slice) out.push(chunk.subarray(at, at + slice));
      return out;
    },
    written(bytes, chunk) {
      const t = now();
      const gap = t - last;
      last = t;
      // Callbacks far apart: smaller slices. Close together: larger ones, fewer calls.
      if (gap > TARGET_GAP_MS) slice = fitSlice((bytes * TARGET_GAP_MS) / gap);
      else if (gap < TARGET_GAP_MS / 4 && slice < MAX_SLICE) slice = Math.min(MAX_SLICE, slice * 2);
      req.onBodyWritten?.(bytes, chunk);
    },
  };
}
