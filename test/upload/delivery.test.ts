// The engine over real HTTP against the reference service: what arrives, what is refused
// before sending, progress and cancellation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadJob } from '../../main/core/upload/attempt';
import { uploadOnce, uploadWithRetries } from '../../main/core/upload/engine';
import { FILE_CHUNK_BYTES } from '../../main/core/upload/file-source';
import { type Harness, OTHER_TOKEN, startHarness, TOKEN } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('delivery', () => {
  it('two files to two channels with a comment arrive with the right size, sha256, channels and comment', async () => {
    const a = await h.file('design-review.pdf', 3 * 1024 * 1024 + 123);
    const b = await h.file('notes.txt', 4321);
    const comment = 'For Thursday: both drafts ✓';
    for (const [f, name] of [
      [a, 'design-review.pdf'],
      [b, 'notes.txt'],
    ] as const) {
      const result = await uploadOnce(
        h.job(f.path, name, { channels: ['C0GENERAL', 'C0DESIGN'], comment }),
        { transport: h.transport },
      );
      expect(result).toMatchObject({
        kind: 'delivered',
        file: { name, size: f.size, channels: ['C0GENERAL', 'C0DESIGN'] },
      });
      expect(result.kind === 'delivered' && result.file.id).toMatch(/^F/);
      expect(result.kind === 'delivered' && result.file.permalink).toMatch(/^http/);
    }
    expect(h.recorded('design-review.pdf')).toEqual([
      {
        id: expect.any(String),
        name: 'design-review.pdf',
        size: a.size,
        sha256: a.sha256,
        channels: ['C0GENERAL', 'C0DESIGN'],
        initial_comment: comment,
        user: 'U0TEST',
      },
    ]);
    expect(h.recorded('notes.txt')).toEqual([
      expect.objectContaining({
        size: b.size,
        sha256: b.sha256,
        channels: ['C0GENERAL', 'C0DESIGN'],
        initial_comment: comment,
      }),
    ]);
  });

  it('normalises the channel list before sending', async () => {
    const f = await h.file('normalised.txt', 10);
    const result = await uploadOnce(
      h.job(f.path, 'normalised.txt', { channels: [' C0DESIGN', '', 'C0RANDOM ', 'C0DESIGN'] }),
      { transport: h.transport },
    );
    expect(result.kind).toBe('delivered');
    expect(h.recorded('normalised.txt')[0]?.channels).toEqual(['C0DESIGN', 'C0RANDOM']);
  });

  it('without a comment, none is recorded', async () => {
    const f = await h.file('no-comment.txt', 10);
    await uploadOnce(h.job(f.path, 'no-comment.txt'), { transport: h.transport });
    expect(h.recorded('no-comment.txt')[0]?.initial_comment).toBeNull();
  });

  it.each(['Résumé – 会議メモ 😀.pdf', 'say "hi".txt', "semi;colon='quote'.txt"])(
    'a file named %j arrives under that name',
    async (name) => {
      const f = await h.file(name, 2048);
      const result = await uploadOnce(h.job(f.path, name), { transport: h.transport });
      expect(result).toMatchObject({ kind: 'delivered', file: { name } });
      expect(h.recorded(name)).toEqual([expect.objectContaining({ sha256: f.sha256 })]);
    },
  );

  it('an empty file arrives as an empty file', async () => {
    const f = await h.file('empty.log', 0);
    const result = await uploadOnce(h.job(f.path, 'empty.log'), { transport: h.transport });
    expect(result.kind).toBe('delivered');
    expect(h.recorded('empty.log')[0]?.size).toBe(0);
  });

  it('progress events rise to the file size', async () => {
    const f = await h.file('progress.bin', 8 * 1024 * 1024 + 1);
    const events: [number, number][] = [];
    const result = await uploadOnce(h.job(f.path, 'progress.bin'), {
      transport: h.transport,
      onProgress: (sent, total) => events.push([sent, total]),
    });
    expect(result.kind).toBe('delivered');
    expect(events.length).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual([f.size, f.size]);
    const sent = events.map(([s]) => s);
    expect(sent).toEqual([...sent].sort((x, y) => x - y));
  });

  it('cancel mid-upload → cancelled, nothing recorded', async () => {
    const f = await h.file('cancelled.bin', 32 * 1024 * 1024);
    const controller = new AbortController();
    const result = await uploadOnce(h.job(f.path, 'cancelled.bin'), {
      transport: h.transport,
      signal: controller.signal,
      onProgress: (sent, total) => {
        if (sent > 0 && sent < total) controller.abort();
      },
    });
    expect(result).toEqual({ kind: 'cancelled' });
    // The service drops an incomplete request: give it the moment it needs to see the close.
    await new Promise((r) => setTimeout(r, 50));
    expect(h.recorded('cancelled.bin')).toEqual([]);
  });

  it('a file larger than the service takes is refused from the headers, before the rest is sent', async () => {
    const small = await startHarness({ config: { maxFileBytes: 1024 * 1024 } });
    try {
      const f = await small.file('too-big.bin', 48 * 1024 * 1024);
      let sent = 0;
      const result = await uploadWithRetries(small.job(f.path, 'too-big.bin'), {
        transport: small.transport,
        onProgress: (s) => {
          sent = s;
        },
      });
      expect(result).toMatchObject({
        kind: 'failed',
        reason: { class: 'content', code: 'file_upload_size_restricted' },
      });
      expect(sent).toBeLessThan(f.size);
      expect(small.requests).toHaveLength(1);
      expect(small.service.uploads()).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('streams a large file in bounded chunks (the body is pulled, never built)', async () => {
    const f = await h.file('chunks.bin', 6 * FILE_CHUNK_BYTES);
    const largest: number[] = [];
    const counting = {
      request: (req: Parameters<typeof h.transport.request>[0]) =>
        h.transport.request({
          ...req,
          body: (async function* () {
            for await (const c of req.body!) {
              largest.push(c.length);
              yield c;
            }
          })(),
        }),
    };
    const result = await uploadOnce(h.job(f.path, 'chunks.bin'), { transport: counting });
    expect(result.kind).toBe('delivered');
    expect(Math.max(...largest)).toBeLessThanOrEqual(FILE_CHUNK_BYTES);
  });
});

describe('refused before any byte reaches the service', () => {
  // Functions of the harness: the webhook-path base URL points at the running service, so a
  // request that slipped through would be seen there.
  const refusals: [string, () => Partial<UploadJob>, string, RegExp][] = [
    ['no token', () => ({ token: '' }), 'no_token', /No token/],
    [
      'a webhook URL as the token',
      () => ({ token: 'https://hooks.slack.com/services/T0000/B0000/XXXXXXXX' }),
      'token_is_url',
      /incoming-webhook address cannot upload/,
    ],
    [
      'an http base URL that is not loopback',
      () => ({ baseUrl: 'http://files.example.com' }),
      'base_url_insecure',
      /plain http to files\.example\.com/,
    ],
    [
      'a base URL on a webhook path',
      () => ({ baseUrl: `${h.service.url}/services/T0000/B0000/XXXXXXXX` }),
      'base_url_webhook',
      /incoming-webhook address/,
    ],
    [
      'a bad channel list',
      () => ({ channels: ['C0GENERAL', 'C0 DESIGN'] }),
      'invalid_channels',
      /contains a space/,
    ],
  ];

  for (const [what, over, code, message] of refusals) {
    it(`${what} → ${code}`, async () => {
      const name = `refused-${code}.txt`;
      const f = await h.file(name, 100);
      const before = h.requests.length;
      const sentBefore = h.transport.sent.length;
      const result = await uploadWithRetries(h.job(f.path, name, over()), {
        transport: h.transport,
      });
      expect(result).toMatchObject({ kind: 'failed', reason: { class: 'input', code } });
      expect(result.kind === 'failed' && result.reason.message).toMatch(message);
      expect(h.transport.sent.length).toBe(sentBefore);
      expect(h.requests.length).toBe(before);
      expect(h.recorded(name)).toEqual([]);
    });
  }

  it('a file that changed since it was queued → file_changed, nothing sent', async () => {
    const f = await h.file('changed.txt', 100);
    const before = h.requests.length;
    const result = await uploadOnce(
      {
        ...h.job(f.path, 'changed.txt'),
        file: { path: f.path, name: 'changed.txt', expectedSize: 99 },
      },
      { transport: h.transport },
    );
    expect(result).toMatchObject({
      kind: 'failed',
      reason: { class: 'input', code: 'file_changed' },
    });
    expect(h.requests.length).toBe(before);
  });

  it('a vanished file → file_missing, nothing sent', async () => {
    const before = h.requests.length;
    const result = await uploadOnce(h.job(`${h.dir}/not-there.txt`, 'not-there.txt'), {
      transport: h.transport,
    });
    expect(result).toMatchObject({
      kind: 'failed',
      reason: { class: 'input', code: 'file_missing' },
    });
    expect(h.requests.length).toBe(before);
  });
});

describe('the service refuses', () => {
  it('a token it does not know → credential/invalid_auth', async () => {
    const f = await h.file('bad-token.txt', 10);
    const result = await uploadWithRetries(
      h.job(f.path, 'bad-token.txt', { token: 'xoxb-not-known' }),
      {
        transport: h.transport,
      },
    );
    expect(result).toMatchObject({
      kind: 'failed',
      reason: { class: 'credential', code: 'invalid_auth' },
    });
    expect(h.recorded('bad-token.txt')).toEqual([]);
  });

  it('a channel that does not exist → target/channel_not_found naming the channels', async () => {
    const f = await h.file('no-channel.txt', 10);
    const result = await uploadOnce(
      h.job(f.path, 'no-channel.txt', { channels: ['C0GENERAL', 'C0NOPE'] }),
      {
        transport: h.transport,
      },
    );
    expect(result).toMatchObject({
      kind: 'failed',
      reason: { class: 'target', code: 'channel_not_found', channels: ['C0GENERAL', 'C0NOPE'] },
    });
    expect(result.kind === 'failed' && result.reason.message).toContain('C0GENERAL or C0NOPE');
  });

  it('a channel the token may not post to → target/not_in_channel', async () => {
    const f = await h.file('not-member.txt', 10);
    const result = await uploadOnce(
      h.job(f.path, 'not-member.txt', { token: OTHER_TOKEN, channels: ['C0DESIGN'] }),
      {
        transport: h.transport,
      },
    );
    expect(result).toMatchObject({
      kind: 'failed',
      reason: { class: 'target', code: 'not_in_channel' },
    });
    expect(result.kind === 'failed' && result.reason.message).toBe(
      "Trayshare's token is not a member of C0DESIGN: invite the app to the channel.",
    );
  });

  it('the token never appears in what the service recorded', () => {
    expect(JSON.stringify(h.service.uploads())).not.toContain(TOKEN);
  });
});
