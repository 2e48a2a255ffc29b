import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi, endlessBody, json, multipart, response, send, upload } from './raw-client';
import { type ReferenceService, type ServiceConfig, startReferenceService } from './server';

let dataDir: string;
let service: ReferenceService;

async function start(config: Partial<ServiceConfig> = {}, now?: () => number) {
  service = await startReferenceService({ dataDir, config, now });
  return service;
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'trayshare-service-'));
});

afterEach(async () => {
  await service?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('files.upload accepted', () => {
  it('stores the file, records it, and answers with a Slack file object', async () => {
    await start();
    const content = randomBytes(50_000);
    const answer = await upload(service.url, {
      channels: 'C0GENERAL,C0DESIGN',
      comment: 'Quarterly numbers',
      file: { name: 'report.pdf', content },
    });
    const body = json(answer);
    expect(response(answer).status).toBe(200);
    expect(body.ok).toBe(true);
    const file = body.file as Record<string, unknown>;
    expect(file).toMatchObject({
      name: 'report.pdf',
      title: 'report.pdf',
      mimetype: 'application/pdf',
      size: content.length,
      user: 'U0TEST',
      channels: ['C0GENERAL', 'C0DESIGN'],
    });
    expect(file.id).toMatch(/^F[A-Z0-9]+$/);
    expect(String(file.permalink)).toContain(String(file.id));
    expect(typeof file.created).toBe('number');

    expect(service.uploads()).toEqual([
      {
        id: file.id,
        name: 'report.pdf',
        size: content.length,
        sha256: sha256(content),
        channels: ['C0GENERAL', 'C0DESIGN'],
        initial_comment: 'Quarterly numbers',
        user: 'U0TEST',
      },
    ]);
    expect(await readFile(service.storedPath(String(file.id)))).toEqual(content);
    expect(await readdir(join(dataDir, 'incoming'))).toEqual([]);
  });

  it('lists uploads in arrival order on GET /_test/uploads, the same as uploads()', async () => {
    await start();
    for (const name of ['one.txt', 'two.txt', 'three.txt']) {
      expect(
        json(
          await upload(service.url, {
            channels: 'C0RANDOM',
            file: { name, content: Buffer.from(name) },
          }),
        ).ok,
      ).toBe(true);
    }
    const listed = JSON.parse(
      response(await send(`${service.url}/_test/uploads`, { method: 'GET' })).text,
    );
    expect(listed.map((u: { name: string }) => u.name)).toEqual([
      'one.txt',
      'two.txt',
      'three.txt',
    ]);
    expect(listed).toEqual(service.uploads());
    expect(listed[0].initial_comment).toBeNull();
  });

  it('takes the name from the filename argument and the title from title', async () => {
    await start();
    const answer = json(
      await upload(service.url, {
        channels: 'C0GENERAL',
        file: { name: 'tmp-123.bin', content: Buffer.from('x') },
        extra: [
          { name: 'filename', value: 'Budget 2026.csv' },
          { name: 'title', value: 'The budget' },
        ],
      }),
    );
    expect(answer.file).toMatchObject({
      name: 'Budget 2026.csv',
      title: 'The budget',
      mimetype: 'text/csv',
    });
    expect(service.uploads()[0]?.name).toBe('Budget 2026.csv');
  });

  it('keeps a UTF-8 file name intact', async () => {
    await start();
    const answer = json(
      await upload(service.url, {
        channels: 'C0GENERAL',
        file: { name: 'Café – résumé.txt', content: Buffer.from('x') },
      }),
    );
    expect(answer.file).toMatchObject({ name: 'Café – résumé.txt' });
  });

  it('accepts text parts after the file part and drops repeated channels', async () => {
    await start();
    const { body, contentType } = multipart([
      { name: 'file', filename: 'late.txt', content: Buffer.from('late fields') },
      { name: 'channels', value: 'C0RANDOM,C0GENERAL,C0RANDOM,' },
      { name: 'initial_comment', value: 'after the file' },
    ]);
    const answer = json(
      await send(`${service.url}/api/files.upload`, {
        body,
        headers: { 'content-type': contentType, authorization: 'Bearer xoxb-test-token' },
      }),
    );
    expect(answer.ok).toBe(true);
    expect(service.uploads()[0]).toMatchObject({
      channels: ['C0RANDOM', 'C0GENERAL'],
      initial_comment: 'after the file',
    });
  });
});

describe('files.upload refused', () => {
  const refused = async (answer: Awaited<ReturnType<typeof send>>, code: string) => {
    const r = response(answer);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ ok: false, error: code });
    expect(r.headers['x-slack-failure']).toBe(code);
    expect(service.uploads()).toEqual([]);
    expect(await readdir(join(dataDir, 'incoming'))).toEqual([]);
    expect(await readdir(join(dataDir, 'files'))).toEqual([]);
  };

  it('not_authed without a token', async () => {
    await start();
    await refused(await upload(service.url, { token: null, channels: 'C0GENERAL' }), 'not_authed');
  });

  it('not_authed when the token is in the form or the URL instead of the header', async () => {
    await start();
    await refused(
      await upload(service.url, {
        token: null,
        channels: 'C0GENERAL',
        extra: [{ name: 'token', value: 'xoxb-test-token' }],
      }),
      'not_authed',
    );
    const { body, contentType } = multipart([
      { name: 'channels', value: 'C0GENERAL' },
      { name: 'file', filename: 'a.txt', content: Buffer.from('a') },
    ]);
    await refused(
      await send(`${service.url}/api/files.upload?token=xoxb-test-token`, {
        body,
        headers: { 'content-type': contentType },
      }),
      'not_authed',
    );
  });

  it('not_authed for another scheme than Bearer', async () => {
    await start();
    await refused(
      await upload(service.url, {
        token: null,
        channels: 'C0GENERAL',
        headers: { authorization: 'Basic eG94Yjp4' },
      }),
      'not_authed',
    );
  });

  it('invalid_auth for an unknown token', async () => {
    await start();
    await refused(
      await upload(service.url, { token: 'xoxb-nobody', channels: 'C0GENERAL' }),
      'invalid_auth',
    );
  });

  it('channel_not_found for a channel that does not exist, even among good ones', async () => {
    await start();
    await refused(
      await upload(service.url, { channels: 'C0GENERAL,C0NOWHERE' }),
      'channel_not_found',
    );
  });

  it('channel_not_found for an ID with a space (the seed says no spaces)', async () => {
    await start();
    await refused(
      await upload(service.url, { channels: 'C0GENERAL, C0DESIGN' }),
      'channel_not_found',
    );
  });

  it('not_in_channel for a channel the token may not post to', async () => {
    await start();
    await refused(await upload(service.url, { channels: 'C0SECRET' }), 'not_in_channel');
    await refused(
      await upload(service.url, { token: 'xoxb-other-token', channels: 'C0GENERAL' }),
      'not_in_channel',
    );
  });

  it('channels_limit_exceeded above 100 channels', async () => {
    const channels = Array.from({ length: 101 }, (_, i) => `C${i}`);
    await start({ channels, tokens: { 'xoxb-test-token': { user: 'U0TEST', channels } } });
    await refused(
      await upload(service.url, { channels: channels.join(',') }),
      'channels_limit_exceeded',
    );
    expect(json(await upload(service.url, { channels: channels.slice(0, 100).join(',') })).ok).toBe(
      true,
    );
  });

  it('no_file_data without a file part', async () => {
    await start();
    await refused(await upload(service.url, { channels: 'C0GENERAL', file: null }), 'no_file_data');
  });

  it('no_file_data when the file travels under another part name', async () => {
    await start();
    await refused(
      await upload(service.url, {
        channels: 'C0GENERAL',
        file: null,
        extra: [{ name: 'upload', filename: 'a.txt', content: Buffer.from('a') }],
      }),
      'no_file_data',
    );
  });

  it('invalid_form_data for a body that is not multipart', async () => {
    await start();
    await refused(
      await callApi(service.url, 'files.upload', { channels: 'C0GENERAL', content: 'hi' }),
      'invalid_form_data',
    );
  });

  it('invalid_form_data for a multipart body cut short', async () => {
    await start();
    const { body, contentType } = multipart([
      { name: 'channels', value: 'C0GENERAL' },
      { name: 'file', filename: 'a.txt', content: randomBytes(5000) },
    ]);
    await refused(
      await send(`${service.url}/api/files.upload`, {
        body: body.subarray(0, 3000),
        headers: { 'content-type': contentType, authorization: 'Bearer xoxb-test-token' },
      }),
      'invalid_form_data',
    );
  });

  it('file_upload_size_restricted for a file over the limit, and accepts one at the limit', async () => {
    await start({ maxFileBytes: 1000 });
    await refused(
      await upload(service.url, {
        channels: 'C0GENERAL',
        file: { name: 'big.bin', content: randomBytes(1001) },
      }),
      'file_upload_size_restricted',
    );
    expect(
      json(
        await upload(service.url, {
          channels: 'C0GENERAL',
          file: { name: 'ok.bin', content: randomBytes(1000) },
        }),
      ).ok,
    ).toBe(true);
  });

  it('refuses a too-large Content-Length before any body byte is sent', async () => {
    await start({ maxFileBytes: 1000 });
    // Headers announce 2 GiB; the body never comes. The answer must arrive anyway.
    const answer = await new Promise<{ status: number; text: string; failure: unknown }>(
      (resolve, reject) => {
        const req = request(`${service.url}/api/files.upload`, {
          method: 'POST',
          agent: false,
          headers: {
            authorization: 'Bearer xoxb-test-token',
            'content-type': 'multipart/form-data; boundary=x',
            'content-length': String(2 * 1024 ** 3),
          },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, text, failure: res.headers['x-slack-failure'] });
            req.destroy();
          });
        });
        req.on('error', reject);
        req.flushHeaders();
      },
    );
    expect(answer).toEqual({
      status: 200,
      text: '{"ok":false,"error":"file_upload_size_restricted"}',
      failure: 'file_upload_size_restricted',
    });
  });

  it('stops a chunked body as soon as the file passes the limit', async () => {
    await start({ maxFileBytes: 100_000 });
    const head = Buffer.from(
      '--b\r\nContent-Disposition: form-data; name="channels"\r\n\r\nC0GENERAL\r\n' +
        '--b\r\nContent-Disposition: form-data; name="file"; filename="endless.bin"\r\n\r\n',
    );
    const endless = endlessBody();
    endless.body.unshift(head);
    const result = await new Promise<string>((resolve, reject) => {
      const req = request(`${service.url}/api/files.upload`, {
        method: 'POST',
        agent: false,
        headers: {
          authorization: 'Bearer xoxb-test-token',
          'content-type': 'multipart/form-data; boundary=b',
        },
      });
      req.on('response', (res) => {
        // The body has no end: an answer can only come from the limit.
        endless.stop();
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => {
          resolve(text);
          req.destroy();
        });
      });
      req.on('error', reject);
      endless.body.pipe(req);
    });
    expect(JSON.parse(result)).toEqual({ ok: false, error: 'file_upload_size_restricted' });
    expect(service.uploads()).toEqual([]);
    expect(await readdir(join(dataDir, 'incoming'))).toEqual([]);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once the token bucket is empty, per token, and refills', async () => {
    let clock = 1_000_000;
    await start({ uploadsPerMinute: 2 }, () => clock);
    expect(json(await upload(service.url, { channels: 'C0RANDOM' })).ok).toBe(true);
    expect(json(await upload(service.url, { channels: 'C0RANDOM' })).ok).toBe(true);

    const limited = response(await upload(service.url, { channels: 'C0RANDOM' }));
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.text)).toEqual({ ok: false, error: 'ratelimited' });
    // Two a minute: the next call is possible 30 s after the bucket ran dry.
    expect(limited.headers['retry-after']).toBe('30');
    expect(service.uploads()).toHaveLength(2);

    // Another token has its own bucket.
    expect(
      json(await upload(service.url, { token: 'xoxb-other-token', channels: 'C0RANDOM' })).ok,
    ).toBe(true);

    clock += 29_000;
    expect(
      response(await upload(service.url, { channels: 'C0RANDOM' })).headers['retry-after'],
    ).toBe('1');
    clock += 1_000;
    expect(json(await upload(service.url, { channels: 'C0RANDOM' })).ok).toBe(true);
    expect(service.uploads()).toHaveLength(4);
  });

  it('does not limit when uploadsPerMinute is 0 (the test default)', async () => {
    await start();
    for (let i = 0; i < 25; i++) {
      expect(response(await upload(service.url, { channels: 'C0RANDOM' })).status).toBe(200);
    }
    expect(service.uploads()).toHaveLength(25);
  });
});

describe('auth.test and other methods', () => {
  it('auth.test names the token owner', async () => {
    await start();
    const answer = json(await callApi(service.url, 'auth.test', {}));
    expect(answer).toEqual({
      ok: true,
      url: `${service.url}/`,
      team: 'Trayshare Reference',
      user: 'u0test',
      team_id: 'T0REFERENCE',
      user_id: 'U0TEST',
    });
  });

  it('auth.test refuses a missing or unknown token', async () => {
    await start();
    expect(json(await callApi(service.url, 'auth.test', {}, null))).toEqual({
      ok: false,
      error: 'not_authed',
    });
    expect(json(await callApi(service.url, 'auth.test', {}, 'xoxb-nobody'))).toEqual({
      ok: false,
      error: 'invalid_auth',
    });
  });

  it('answers unknown_method for any other method, HTTP 200', async () => {
    await start();
    const answer = response(
      await callApi(service.url, 'chat.postMessage', { channel: 'C0GENERAL' }),
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ ok: false, error: 'unknown_method' });
  });

  it('answers 404 outside /api/', async () => {
    await start();
    expect(response(await send(`${service.url}/files.upload`)).status).toBe(404);
  });
});
