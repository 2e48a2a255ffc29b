// A multipart/form-data body for one file, written by hand rather than with a form library
// because the engine needs three things libraries do not give together: the exact
// Content-Length before the first byte (so the request is never chunked and the service can
// refuse a too-large file up front), progress counted in file bytes, and a hook just before
// the last bytes go out (where the queue journals "the service may now have it all").
import { randomBytes } from 'node:crypto';
import { contentTypeFor } from './content-types';
import { FileProblem } from './file-source';

export interface UploadForm {
  /** Text parts, in order, before the file part (empty values are the caller's choice). */
  fields: ReadonlyArray<readonly [name: string, value: string]>;
  file: { name: string; size: number; contentType?: string };
}

export interface MultipartLayout {
  boundary: string;
  /** The request's Content-Type header. */
  contentType: string;
  /** Text parts plus the file part's headers: everything before the file's bytes. */
  head: Buffer;
  /** Closes the file part and the form. */
  tail: Buffer;
  /** head + file size + tail: the request's Content-Length. */
  contentLength: number;
}

const CRLF = '\r\n';

/**
 * A name or file name inside a quoted Content-Disposition parameter. RFC 7578 §4.2 says to
 * send the name as UTF-8 text (and not to use `filename*`); the escaping is the WHATWG HTML
 * form encoding that browsers and Slack's own SDK (form-data) use: only `"`, CR and LF are
 * percent-encoded, so a name cannot end the header line or the quoted string. Other control
 * characters are not valid in a quoted string either, so they are encoded the same way.
 */
export function quoteParam(value: string): string {
  const escaped = value.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this escapes
    /["\u0000-\u0008\u000a-\u001f\u007f]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  return `"${escaped}"`;
}

function newBoundary(): string {
  return `----TrayshareFormBoundary${randomBytes(12).toString('hex')}`;
}

export function layoutMultipart(form: UploadForm, boundary = newBoundary()): MultipartLayout {
  let head = '';
  for (const [name, value] of form.fields) {
    if (value.includes(boundary)) throw new Error('form field contains the multipart boundary');
    head += `--${boundary}${CRLF}Content-Disposition: form-data; name=${quoteParam(name)}${CRLF}${CRLF}${value}${CRLF}`;
  }
  const type = form.file.contentType ?? contentTypeFor(form.file.name);
  head +=
    `--${boundary}${CRLF}Content-Disposition: form-data; name="file"; filename=${quoteParam(form.file.name)}${CRLF}` +
    `Content-Type: ${type}${CRLF}${CRLF}`;
  const headBytes = Buffer.from(head, 'utf8');
  const tailBytes = Buffer.from(`${CRLF}--${boundary}--${CRLF}`, 'utf8');
  return {
    boundary,
    contentType: `multipart/form-data; boundary=${boundary}`,
    head: headBytes,
    tail: tailBytes,
    contentLength: headBytes.length + form.file.size + tailBytes.length,
  };
}

export interface BodyHooks {
  /** Called after each chunk of the file is handed on, with the file bytes so far. */
  onFileBytes?: (sent: number) => void;
  /** Awaited after the last file byte and before the closing boundary (the last bytes). */
  beforeTail?: () => void | Promise<void>;
}

/**
 * The body, pulled chunk by chunk: head, the file's chunks, tail. The file must yield exactly
 * the size the layout promised, or the body fails with file_changed instead of sending a
 * request whose length lies.
 */
export async function* multipartBody(
  layout: MultipartLayout,
  fileSize: number,
  fileChunks: AsyncIterable<Uint8Array>,
  hooks: BodyHooks = {},
): AsyncGenerator<Uint8Array> {
  yield layout.head;
  let sent = 0;
  for await (const chunk of fileChunks) {
    sent += chunk.length;
    if (sent > fileSize) {
      throw new FileProblem('file_changed', 'The file grew while it was being sent.');
    }
    yield chunk;
    hooks.onFileBytes?.(sent);
  }
  if (sent !== fileSize) {
    throw new FileProblem('file_changed', 'The file got shorter while it was being sent.');
  }
  await hooks.beforeTail?.();
  yield layout.tail;
}
