// Answers are asked for with `Accept-Encoding: identity`, yet some proxies and servers compress
// anyway. A gzip-encoded `ok: true` read as text is not JSON, so a delivered file would show as
// "may have been delivered": decode what comes. Answers are small, so this is done whole, with
// the output capped (a compressed answer must not expand without bound).
// node:zlib is loaded only when an answer comes encoded (~3 ms at every start otherwise).
import { createRequire } from 'node:module';
import type * as Zlib from 'node:zlib';

const require = createRequire(import.meta.url);
let loaded: typeof Zlib | undefined;
const zlib = (): typeof Zlib => {
  loaded ??= require('node:zlib') as typeof Zlib;
  return loaded;
};

const isZlibHeader = (cmf: number, flg: number): boolean =>
  (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;

function decoderFor(
  encoding: string,
  bytes: Buffer,
): ((b: Buffer, o: Zlib.ZlibOptions) => Buffer) | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib().gunzipSync;
    case 'deflate':
      // "deflate" is meant to be zlib-wrapped, but some servers send raw deflate.
      return isZlibHeader(bytes[0] ?? 0, bytes[1] ?? 0)
        ? zlib().inflateSync
        : zlib().inflateRawSync;
    case 'br':
      return zlib().brotliDecompressSync;
    default:
      return undefined;
  }
}

/** The answer's text, with any Content-Encoding undone. Bytes that do not decode as labelled
 * (e.g. a stack that already decoded them) are returned as they came. */
export function decodeAnswer(
  bytes: Buffer,
  contentEncoding: string | undefined,
  maxBytes: number,
): string {
  let out = bytes;
  const encodings = (contentEncoding ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'identity');
  // Encodings are listed in the order they were applied: undo them last first.
  for (const encoding of encodings.reverse()) {
    const decode = out.length > 1 ? decoderFor(encoding, out) : undefined;
    if (!decode) break;
    try {
      out = decode(out, { maxOutputLength: maxBytes });
    } catch {
      break;
    }
  }
  return out.subarray(0, maxBytes).toString('utf8');
}
