import { createHash } from 'node:crypto';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentTypeFor } from './content-types';
import {
  ChunkRing,
  FILE_CHUNK_BYTES,
  FileProblem,
  openForUpload,
  readFileChunks,
} from './file-source';
import { layoutMultipart, multipartBody, quoteParam } from './multipart';

interface Parsed {
  fields: Record<string, string>;
  files: { field: string; filename: string | undefined; mimeType: string; bytes: Buffer }[];
}

// Parsed the way a server would: busboy with UTF-8 parameters.
function parse(contentType: string, body: Buffer): Promise<Parsed> {
  return new Promise((resolve, reject) => {
    const parsed: Parsed = { fields: {}, files: [] };
    const bb = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8' });
    bb.on('field', (name, value) => {
      parsed.fields[name] = value;
    });
    bb.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () =>
        parsed.files.push({
          field,
          filename: info.filename,
          mimeType: info.mimeType,
          bytes: Buffer.concat(chunks),
        }),
      );
    });
    bb.on('close', () => resolve(parsed));
    bb.on('error', reject);
    Readable.from([body]).pipe(bb);
  });
}

async function collect(
  body: AsyncIterable<Uint8Array>,
): Promise<{ bytes: Buffer; chunks: number[] }> {
  const parts: Buffer[] = [];
  const chunks: number[] = [];
  for await (const c of body) {
    parts.push(Buffer.from(c));
    chunks.push(c.length);
  }
  return { bytes: Buffer.concat(parts), chunks };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-multipart-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function bodyFor(
  content: Buffer,
  name: string,
  fields: [string, string][],
  blocking = false,
) {
  const path = join(dir, 'upload.bin');
  await writeFile(path, content);
  const opened = await openForUpload({ path, name });
  try {
    const layout = layoutMultipart({ fields, file: { name, size: opened.size } });
    const { bytes, chunks } = await collect(
      multipartBody(
        layout,
        opened.size,
        readFileChunks(opened, name, new ChunkRing(FILE_CHUNK_BYTES, 0), { blocking }),
      ),
    );
    return { layout, bytes, chunks };
  } finally {
    await opened.handle.close();
  }
}

describe('multipart body', () => {
  it.each([
    ['reads on the thread pool', false],
    ['blocking reads', true],
  ])(
    'parses back into the same fields and the same file bytes, at exactly the announced length (%s)',
    async (_mode, blocking) => {
      const content = Buffer.alloc(3 * FILE_CHUNK_BYTES + 12345);
      for (let i = 0; i < content.length; i++) content[i] = (i * 31 + 7) & 0xff;
      const comment = 'Draft for review:\r\nline two, with "quotes" and ünïcödé ✓';
      const { layout, bytes, chunks } = await bodyFor(
        content,
        'report.pdf',
        [
          ['channels', 'C0GENERAL,C0DESIGN'],
          ['initial_comment', comment],
        ],
        blocking,
      );

      expect(bytes.length).toBe(layout.contentLength);
      const parsed = await parse(layout.contentType, bytes);
      expect(parsed.fields).toEqual({ channels: 'C0GENERAL,C0DESIGN', initial_comment: comment });
      expect(parsed.files).toHaveLength(1);
      const file = parsed.files[0]!;
      expect(file.field).toBe('file');
      expect(file.filename).toBe('report.pdf');
      expect(file.mimeType).toBe('application/pdf');
      expect(createHash('sha256').update(file.bytes).digest('hex')).toBe(
        createHash('sha256').update(content).digest('hex'),
      );
      // Memory stays flat: the file comes through in bounded chunks, never whole.
      expect(Math.max(...chunks)).toBeLessThanOrEqual(FILE_CHUNK_BYTES);
      expect(chunks.length).toBeGreaterThan(4);
    },
  );

  it('puts the text parts before the file part', async () => {
    const { bytes } = await bodyFor(Buffer.from('x'), 'a.txt', [
      ['channels', 'C1'],
      ['filename', 'a.txt'],
    ]);
    const text = bytes.toString('utf8');
    expect(text.indexOf('name="channels"')).toBeLessThan(text.indexOf('name="file"'));
    expect(text.indexOf('name="filename"')).toBeLessThan(text.indexOf('name="file"'));
  });

  it('sends an empty file as an empty file part', async () => {
    const { layout, bytes } = await bodyFor(Buffer.alloc(0), 'empty.txt', [['channels', 'C1']]);
    expect(bytes.length).toBe(layout.contentLength);
    const parsed = await parse(layout.contentType, bytes);
    expect(parsed.files[0]?.bytes.length).toBe(0);
    expect(parsed.files[0]?.filename).toBe('empty.txt');
  });

  const names: [string, string][] = [
    ['résumé 2024.pdf', 'résumé 2024.pdf'],
    ['会議メモ.txt', '会議メモ.txt'],
    ['emoji 😀.png', 'emoji 😀.png'],
    ['semi;colon=equals.txt', 'semi;colon=equals.txt'],
    ["it's (final) [v2] & more.txt", "it's (final) [v2] & more.txt"],
    // The WHATWG form encoding: a quote or line break cannot end the quoted string or the header.
    ['say "hi".txt', 'say %22hi%22.txt'],
    ['two\r\nlines.txt', 'two%0D%0Alines.txt'],
    ['--boundary-lookalike.txt', '--boundary-lookalike.txt'],
  ];
  for (const [name, inHeader] of names) {
    it(`carries the file name ${JSON.stringify(name)} (header and filename part)`, async () => {
      const { layout, bytes } = await bodyFor(Buffer.from('data'), name, [
        ['channels', 'C1'],
        ['filename', name],
      ]);
      expect(bytes.length).toBe(layout.contentLength);
      const parsed = await parse(layout.contentType, bytes);
      expect(parsed.files[0]?.filename).toBe(inHeader);
      expect(parsed.fields.filename).toBe(name);
      expect(parsed.files[0]?.bytes.toString()).toBe('data');
    });
  }

  it('never lets a name break the header line', () => {
    expect(quoteParam('a"b\r\nContent-Type: text/html')).toBe(
      '"a%22b%0D%0AContent-Type: text/html"',
    );
    expect(quoteParam('tab\there\u0001')).toBe('"tab\there%01"');
  });

  it('refuses a text field that contains the boundary', () => {
    expect(() =>
      layoutMultipart(
        { fields: [['initial_comment', 'see --XYZ here']], file: { name: 'a', size: 1 } },
        '--XYZ',
      ),
    ).toThrow(/boundary/);
  });

  it.each([
    ['reads on the thread pool', false],
    ['blocking reads', true],
  ])(
    'fails with file_changed when the file is shorter than announced, before the closing boundary (%s)',
    async (_mode, blocking) => {
      const path = join(dir, 'shrinks.bin');
      await writeFile(path, Buffer.alloc(FILE_CHUNK_BYTES * 3, 1));
      const opened = await openForUpload({ path, name: 'shrinks.bin' });
      const layout = layoutMultipart({
        fields: [],
        file: { name: 'shrinks.bin', size: opened.size },
      });
      const seen: Buffer[] = [];
      let tailHook = false;
      const body = multipartBody(
        layout,
        opened.size,
        readFileChunks(opened, 'shrinks.bin', new ChunkRing(1024, 0), { blocking }),
        {
          beforeTail: () => {
            tailHook = true;
          },
        },
      );
      const error = await (async () => {
        try {
          for await (const c of body) {
            seen.push(Buffer.from(c));
            if (seen.length === 2) await truncate(path, 100);
          }
        } catch (e) {
          return e;
        }
      })();
      await opened.handle.close();
      expect(error).toBeInstanceOf(FileProblem);
      expect((error as FileProblem).code).toBe('file_changed');
      expect(tailHook).toBe(false);
      expect(Buffer.concat(seen).includes(layout.tail)).toBe(false);
    },
  );

  it('fails with file_changed when the file source yields more than announced', async () => {
    const layout = layoutMultipart({ fields: [], file: { name: 'a', size: 2 } });
    async function* three() {
      yield Buffer.from('abc');
    }
    await expect(collect(multipartBody(layout, 2, three()))).rejects.toMatchObject({
      code: 'file_changed',
    });
  });

  it('awaits the last-bytes hook after the whole file and before the closing boundary', async () => {
    const layout = layoutMultipart({ fields: [], file: { name: 'a', size: 3 } });
    const order: string[] = [];
    async function* file() {
      yield Buffer.from('abc');
    }
    const body = multipartBody(layout, 3, file(), {
      onFileBytes: (n) => order.push(`file:${n}`),
      beforeTail: async () => {
        await new Promise((r) => setTimeout(r, 5));
        order.push('hook');
      },
    });
    for await (const c of body) {
      if (Buffer.from(c).equals(layout.tail)) order.push('tail');
    }
    expect(order).toEqual(['file:3', 'hook', 'tail']);
  });
});

describe('content type from the extension', () => {
  it.each([
    ['photo.JPG', 'image/jpeg'],
    ['notes.txt', 'text/plain'],
    ['deck.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['archive.tar.gz', 'application/gzip'],
    ['clip.mov', 'video/quicktime'],
    ['Makefile', 'application/octet-stream'],
    ['.bashrc', 'application/octet-stream'],
    ['trailing.', 'application/octet-stream'],
    ['data.xyz123', 'application/octet-stream'],
  ])('%s → %s', (name, type) => {
    expect(contentTypeFor(name)).toBe(type);
  });
});
