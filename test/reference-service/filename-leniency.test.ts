// Issue 15 item 14: the reference service reads a part's file name as Slack does: a raw `"`
// inside the quoted value (Python's slack_sdk sends that) is kept, browsers' WHATWG escapes
// (%22, %0A, %0D) are decoded, and backslashes are kept.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, multipart, send } from './raw-client';
import { type ReferenceService, startReferenceService } from './server';

let dataDir: string;
let service: ReferenceService;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'trayshare-filename-'));
  service = await startReferenceService({ dataDir });
});

afterAll(async () => {
  await service.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function nameOf(rawFilename: string): Promise<unknown> {
  const { body, contentType } = multipart([
    { name: 'channels', value: 'C0GENERAL' },
    { name: 'file', filename: rawFilename, content: Buffer.from('x') },
  ]);
  const answer = json(
    await send(`${service.url}/api/files.upload`, {
      body,
      headers: { 'content-type': contentType, authorization: 'Bearer xoxb-test-token' },
    }),
  );
  expect(answer).toMatchObject({ ok: true });
  return (answer.file as { name?: unknown } | undefined)?.name;
}

describe('file names in the part header (no filename text part)', () => {
  it('keeps a raw double quote inside the quoted value', async () => {
    expect(await nameOf('say "hi".txt')).toBe('say "hi".txt');
  });

  it('decodes %22, %0A and %0D as browsers encode them, and nothing else', async () => {
    expect(await nameOf('a%22b%0Ac%0Dd%41.txt')).toBe('a"b\nc\rd%41.txt');
  });

  it('keeps backslashes and what comes before them', async () => {
    expect(await nameOf('C:\\reports\\q1.txt')).toBe('C:\\reports\\q1.txt');
  });
});
