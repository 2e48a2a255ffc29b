import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi, json, type RawResult, response, send, upload } from './raw-client';
import { type FaultRule, type ReferenceService, startReferenceService } from './server';

let dataDir: string;
let service: ReferenceService;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'trayshare-faults-'));
  service = await startReferenceService({ dataDir });
});

afterEach(async () => {
  await service.close();
  await rm(dataDir, { recursive: true, force: true });
});

const bigFile = () => ({ name: 'big.bin', content: randomBytes(4 * 1024 * 1024) });
const uploadOk = () => upload(service.url, { channels: 'C0GENERAL', comment: 'hi' });

function expectReset(result: RawResult) {
  expect(result.kind).toBe('error');
  if (result.kind === 'error') expect(['ECONNRESET', 'EPIPE']).toContain(result.code);
}

describe('each fault mode, as a plain Node client sees it', () => {
  it('reset-mid-body: the connection drops while the body is sent; nothing recorded', async () => {
    service.injectFault({ fault: { kind: 'reset-mid-body', afterBytes: 64 * 1024 } });
    expectReset(await upload(service.url, { channels: 'C0GENERAL', file: bigFile() }));
    expect(service.uploads()).toEqual([]);
    expect(await readdir(join(dataDir, 'incoming'))).toEqual([]);
  });

  it('reset-mid-body without afterBytes cuts halfway through', async () => {
    service.injectFault({ fault: { kind: 'reset-mid-body' } });
    expectReset(await upload(service.url, { channels: 'C0GENERAL', file: bigFile() }));
    expect(service.uploads()).toEqual([]);
  });

  it('reset-after-body: the upload is recorded but no answer comes', async () => {
    service.injectFault({ fault: { kind: 'reset-after-body' } });
    expectReset(await uploadOk());
    expect(service.uploads()).toMatchObject([{ channels: ['C0GENERAL'], initial_comment: 'hi' }]);
  });

  it('status: 503 with Retry-After, answered without processing', async () => {
    service.injectFault({ fault: { kind: 'status', status: 503, retryAfter: 7 } });
    const answer = response(await upload(service.url, { channels: 'C0GENERAL', file: bigFile() }));
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('7');
    expect(service.uploads()).toEqual([]);
  });

  it('proxy-html: recorded, then an HTML error page', async () => {
    service.injectFault({ fault: { kind: 'proxy-html', status: 502 } });
    const answer = response(await uploadOk());
    expect(answer.status).toBe(502);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.text).toContain('502 Bad Gateway');
    expect(service.uploads()).toHaveLength(1);
  });

  it('proxy-html with status 200: an HTML page where JSON was expected', async () => {
    service.injectFault({ fault: { kind: 'proxy-html', status: 200 } });
    const answer = response(await uploadOk());
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(/^<html>/);
    expect(service.uploads()).toHaveLength(1);
  });

  it('truncated-json: recorded, then 200 with JSON cut off', async () => {
    service.injectFault({ fault: { kind: 'truncated-json' } });
    const answer = response(await uploadOk());
    expect(answer.status).toBe(200);
    expect(answer.text.startsWith('{"ok":true')).toBe(true);
    expect(() => JSON.parse(answer.text)).toThrow();
    expect(service.uploads()).toHaveLength(1);
  });

  it('slow: recorded at once, the answer comes later', async () => {
    service.injectFault({ fault: { kind: 'slow', delayMs: 1500 } });
    let answered = false;
    const pending = uploadOk().then((r) => {
      answered = true;
      return r;
    });
    while (service.uploads().length === 0) await new Promise((r) => setTimeout(r, 10));
    expect(answered).toBe(false);
    expect(json(await pending).ok).toBe(true);
  });

  it('gather: answers held until the count of requests the rule names wait, then all of them go', async () => {
    service.injectFault({ fault: { kind: 'gather', count: 2 }, times: 2 });
    let answered = 0;
    const first = uploadOk().then((r) => {
      answered += 1;
      return r;
    });
    while (service.uploads().length === 0) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 200));
    expect(answered).toBe(0);
    const second = uploadOk();
    expect([json(await first).ok, json(await second).ok]).toEqual([true, true]);
    expect(service.uploads()).toHaveLength(2);
  });

  it('gather: a rule whose count never comes answers what it holds after its longest wait', async () => {
    service.injectFault({ fault: { kind: 'gather', count: 5, maxWaitMs: 300 } });
    expect(json(await uploadOk()).ok).toBe(true);
  });

  it('redirect: a 3xx naming another place, before the body; nothing recorded', async () => {
    service.injectFault({
      fault: { kind: 'redirect', location: 'https://elsewhere.invalid/api/files.upload' },
    });
    const answer = response(await upload(service.url, { channels: 'C0GENERAL', file: bigFile() }));
    expect(answer.status).toBe(307);
    expect(answer.headers.location).toBe('https://elsewhere.invalid/api/files.upload');
    expect(service.uploads()).toEqual([]);

    service.injectFault({ fault: { kind: 'redirect', location: '/moved', status: 301 } });
    expect(response(await uploadOk()).status).toBe(301);
  });

  it('error: a Slack-style failure, nothing recorded', async () => {
    service.injectFault({ fault: { kind: 'error', error: 'service_unavailable' } });
    const answer = response(await uploadOk());
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ ok: false, error: 'service_unavailable' });
    expect(answer.headers['x-slack-failure']).toBe('service_unavailable');
    expect(service.uploads()).toEqual([]);
  });

  it('error with record: the upload happened, the answer says it failed (fatal_error)', async () => {
    service.injectFault({
      fault: { kind: 'error', error: 'fatal_error', status: 500, record: true },
    });
    const answer = response(await uploadOk());
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.text)).toEqual({ ok: false, error: 'fatal_error' });
    expect(service.uploads()).toHaveLength(1);
  });

  it('ratelimit: 429 with Retry-After and "ratelimited"', async () => {
    service.injectFault({ fault: { kind: 'ratelimit', retryAfter: 3 } });
    const answer = response(await uploadOk());
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBe('3');
    expect(JSON.parse(answer.text)).toEqual({ ok: false, error: 'ratelimited' });
    expect(service.uploads()).toEqual([]);
  });
});

describe('fault rules', () => {
  it('apply to the next `times` requests of their method only', async () => {
    service.injectFault({ fault: { kind: 'status', status: 503 }, times: 2 });
    service.injectFault({ fault: { kind: 'error', error: 'invalid_auth' }, method: 'auth.test' });

    expect(json(await callApi(service.url, 'auth.test', {}))).toEqual({
      ok: false,
      error: 'invalid_auth',
    });
    expect(json(await callApi(service.url, 'auth.test', {})).ok).toBe(true);

    expect(response(await uploadOk()).status).toBe(503);
    expect(response(await uploadOk()).status).toBe(503);
    expect(json(await uploadOk()).ok).toBe(true);
  });

  it('can be set and cleared over HTTP', async () => {
    const rule: FaultRule = { fault: { kind: 'status', status: 503, retryAfter: 1 }, times: 5 };
    const set = await send(`${service.url}/_test/faults`, {
      body: Buffer.from(JSON.stringify(rule)),
      headers: { 'content-type': 'application/json' },
    });
    expect(response(set).status).toBe(200);
    expect(response(await uploadOk()).status).toBe(503);

    expect(response(await send(`${service.url}/_test/faults`, { method: 'DELETE' })).status).toBe(
      200,
    );
    expect(json(await uploadOk()).ok).toBe(true);
  });

  it('refuses a rule it does not understand, saying why', async () => {
    const answer = response(
      await send(`${service.url}/_test/faults`, {
        body: Buffer.from(JSON.stringify({ fault: { kind: 'status' } })),
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('status');
    expect(() =>
      service.injectFault({ fault: { kind: 'nonsense' } } as unknown as FaultRule),
    ).toThrow(/invalid fault rule/);
  });

  it('can script a method the service does not have', async () => {
    service.injectFault({
      fault: { kind: 'error', error: 'method_deprecated' },
      method: 'files.list',
    });
    expect(json(await callApi(service.url, 'files.list', {}))).toEqual({
      ok: false,
      error: 'method_deprecated',
    });
    expect(json(await callApi(service.url, 'files.list', {}))).toEqual({
      ok: false,
      error: 'unknown_method',
    });
  });
});
