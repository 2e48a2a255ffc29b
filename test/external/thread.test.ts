// A reply in a thread through Slack's external protocol, over real HTTP: the completion goes
// with channel_id + thread_ts, as both Slack SDKs send it (node-slack-sdk
// packages/web-api/src/file-upload.ts, python-slack-sdk files_completeUploadExternal), and the
// delivered file knows the reply's ts from files.info's shares.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import type { Transport } from '../../main/core/upload/transport';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { makeFile, openApp } from './helpers';

let dir: string;
let service: ReferenceService;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-external-thread-'));
  service = await startReferenceService({ dataDir: join(dir, 'service') });
});

afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The real transport, keeping a copy of each completion's form as it goes out. */
function recordingCompletions(forms: URLSearchParams[]): Transport {
  const inner = createNodeTransport();
  return {
    request(req) {
      if (!req.url.endsWith('/api/files.completeUploadExternal') || !req.body) {
        return inner.request(req);
      }
      const source = req.body;
      const chunks: Buffer[] = [];
      const body = (async function* () {
        for await (const chunk of source) {
          chunks.push(Buffer.from(chunk));
          yield chunk;
        }
        forms.push(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      })();
      return inner.request({ ...req, body });
    },
  };
}

describe('a reply in a thread through the external protocol', () => {
  it('completes with channel_id and thread_ts, and the file knows its reply ts', async () => {
    const forms: URLSearchParams[] = [];
    const app = await openApp({
      dataDir: join(dir, 'app'),
      transport: recordingCompletions(forms),
    });
    try {
      const ws = await app.addWorkspace({
        name: 'Acme',
        baseUrl: service.url,
        protocol: 'external',
      });
      const files = [
        await makeFile(join(dir, 'files'), 'reply-1.txt'),
        await makeFile(join(dir, 'files'), 'reply-2.txt'),
      ];
      const { items } = await app.share({
        target: { workspaceId: ws.id, channels: ['C0DESIGN'] },
        comment: 'In the thread',
        thread: 'https://acme.example.com/archives/C0DESIGN/p1700000000123456',
        paths: files.map((f) => f.path),
      });
      await app.settled();
      const done = (await app.listQueue()).filter((i) => items.some((s) => s.id === i.id));
      expect(done.map((i) => i.state)).toEqual(['delivered', 'delivered']);

      expect(forms).toHaveLength(1);
      expect(forms[0]!.get('channel_id')).toBe('C0DESIGN');
      expect(forms[0]!.get('thread_ts')).toBe('1700000000.123456');
      expect(forms[0]!.has('channels')).toBe(false);

      const [message] = service.messages();
      expect(message).toMatchObject({
        channels: ['C0DESIGN'],
        thread_ts: '1700000000.123456',
        initial_comment: 'In the thread',
      });
      expect(message!.files).toHaveLength(2);
      expect(done.map((i) => i.file?.ts)).toEqual([message!.ts, message!.ts]);
    } finally {
      await app.close();
    }
  });
});
