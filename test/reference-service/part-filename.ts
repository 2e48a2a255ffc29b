// Reads a part's file name as Slack does, not as RFC 7578 strictly says. Clients in the wild
// send `filename="say "hi".txt"` (Python's slack_sdk puts a raw `"` inside the quotes) and
// `C:\reports\q1.txt` (a backslash is not an escape to browsers), and browsers escape only `"`,
// LF and CR, as %22, %0A and %0D (WHATWG). busboy reads quoted strings strictly, dropping such
// a part or eating the backslashes, so each part header's filename is rewritten on the way in
// as the RFC 5987 `filename*=utf-8''…` form, which busboy reads exactly.
import { Transform, type TransformCallback } from 'node:stream';

const MAX_HEADER_BYTES = 16 * 1024;

// Greedy up to the last quote that ends the value: one followed by the end of the line or by
// the next parameter.
const FILENAME = /;\s*filename="(.*)"(?=\s*(?:;\s*[\w*-]+=|$))/i;

/** %22, %0A and %0D back to the characters browsers escaped; any other % stays. */
function decodeWhatwgFilename(value: string): string {
  return value.replace(/%(22|0A|0D)/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

// RFC 5987 attr-chars only: encodeURIComponent leaves ' ( ) * ! as they are, and a `'` would
// end the value early.
const extValue = (name: string): string =>
  encodeURIComponent(name).replace(
    /['()*!]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

function rewriteHeaders(block: Buffer): Buffer {
  const text = block.toString('latin1');
  const out = text.replace(/^(content-disposition:[^\r\n]*)$/gim, (line: string) => {
    if (/filename\*\s*=/i.test(line)) return line;
    return line.replace(FILENAME, (_match, raw: string) => {
      const name = decodeWhatwgFilename(Buffer.from(raw, 'latin1').toString('utf8'));
      return `; filename*=utf-8''${extValue(name)}`;
    });
  });
  return out === text ? block : Buffer.from(out, 'latin1');
}

/** The boundary from a multipart Content-Type, if it names one. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return match?.[1] ?? match?.[2];
}

/** Passes the body through, rewriting each part header's filename (see above). */
export function partFilenameRewriter(boundary: string): Transform {
  // The body starts with the first delimiter; later ones follow a CRLF.
  const first = Buffer.from(`--${boundary}`, 'latin1');
  const later = Buffer.from(`\r\n--${boundary}`, 'latin1');
  const headerEnd = Buffer.from('\r\n\r\n', 'latin1');
  let state: 'start' | 'body' | 'header' = 'start';
  let pending: Buffer = Buffer.alloc(0);

  const drain = (push: (b: Buffer) => void): void => {
    for (;;) {
      if (state === 'start') {
        if (pending.length < first.length) return;
        state = pending.subarray(0, first.length).equals(first) ? 'header' : 'body';
        if (state === 'header') {
          push(pending.subarray(0, first.length));
          pending = pending.subarray(first.length);
        }
        continue;
      }
      if (state === 'body') {
        const at = pending.indexOf(later);
        if (at < 0) {
          const keep = Math.min(pending.length, later.length - 1);
          push(pending.subarray(0, pending.length - keep));
          pending = pending.subarray(pending.length - keep);
          return;
        }
        push(pending.subarray(0, at + later.length));
        pending = pending.subarray(at + later.length);
        state = 'header';
        continue;
      }
      const end = pending.indexOf(headerEnd);
      if (end < 0) {
        if (pending.length <= MAX_HEADER_BYTES) return;
        // Not a header block after all (or an absurd one): pass it on for busboy to judge.
        state = 'body';
        continue;
      }
      push(rewriteHeaders(pending.subarray(0, end + headerEnd.length)));
      pending = pending.subarray(end + headerEnd.length);
      state = 'body';
    }
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      drain((b) => {
        if (b.length) this.push(b);
      });
      callback();
    },
    flush(callback: TransformCallback) {
      if (pending.length) this.push(pending);
      callback();
    },
  });
}
