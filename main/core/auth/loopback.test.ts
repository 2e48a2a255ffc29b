// The sign-in's loopback listener as the browser meets it: real HTTP requests to 127.0.0.1 (and
// ::1 where the machine has it) on the port it took. What a person would check: the tab that
// brought the answer is told how the sign-in ended, a stray visit is told it is not the answer
// and changes nothing, and once the sign-in ends nothing listens any more, whatever was still
// connected. (test/auth/sign-in.test.ts drives the same listener through the whole sign-in.)
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AllPortsTakenError, type LoopbackListener, openLoopback } from './loopback';

const STATE = 'state-of-this-attempt';
const opened: LoopbackListener[] = [];

afterEach(async () => {
  for (const listener of opened.splice(0)) await listener.finish({ ok: false, message: 'Ended.' });
});

async function open(ports: readonly number[] = [0]): Promise<LoopbackListener> {
  const listener = await openLoopback({ ports, expectedState: STATE });
  opened.push(listener);
  return listener;
}

function portOf(listener: LoopbackListener): number {
  return Number(new URL(listener.redirectUri).port);
}

/** The callback URL at 127.0.0.1 (what `localhost` leads to first), with this query. */
function callbackAt(listener: LoopbackListener, query: string, host = '127.0.0.1'): string {
  return `http://${host}:${portOf(listener)}/slack/callback${query}`;
}

interface Visit {
  status: number;
  headers: Headers;
  html: string;
}

/** A browser's visit; status 0 when nothing answers (connection refused or closed). */
async function visit(url: string, init?: RequestInit): Promise<Visit> {
  try {
    const res = await fetch(url, init);
    return { status: res.status, headers: res.headers, html: await res.text() };
  } catch {
    return { status: 0, headers: new Headers(), html: '' };
  }
}

/** Whether `promise` is still pending after the listener has had time to act. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  const later = Symbol('pending');
  const first = await Promise.race([
    promise,
    new Promise((resolve) => setTimeout(() => resolve(later), 100)),
  ]);
  return first === later;
}

async function hasIpv6Loopback(): Promise<boolean> {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(0, '::1', resolve);
    });
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return true;
  } catch {
    return false;
  }
}
const ipv6 = await hasIpv6Loopback();

describe('the answer of this sign-in', () => {
  it('the callback with its state and a code: the code is the answer, and the tab waits to be told "connected"', async () => {
    const listener = await open();
    expect(listener.redirectUri).toBe(`http://localhost:${portOf(listener)}/slack/callback`);
    const tab = visit(callbackAt(listener, `?code=the-code&state=${STATE}`));
    expect(await listener.callback).toEqual({ kind: 'code', code: 'the-code' });
    // Held open until the sign-in has finished, so the tab can say how it ended.
    expect(await pending(tab)).toBe(true);
    await listener.finish({ ok: true, message: 'ignored when connected' });
    const page = await tab;
    expect(page.status).toBe(200);
    expect(page.html).toContain('<title>Trayshare is connected</title>');
    expect(page.html).toContain('<h1>Trayshare is connected</h1>');
    expect(page.html).toContain('<p>Trayshare is connected. You can close this tab.</p>');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'",
    );
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    // Nothing keeps the tab's connection once it has its page.
    expect(page.headers.get('connection')).toBe('close');
  });

  it('a sign-in that failed after the callback: the tab says why, the service’s words escaped', async () => {
    const listener = await open();
    const tab = visit(callbackAt(listener, `?code=c&state=${STATE}`));
    await listener.callback;
    await listener.finish({ ok: false, message: 'Slack said <b>"no" & \'never\'</b>.' });
    const page = await tab;
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Trayshare could not sign in</h1>');
    expect(page.html).toContain(
      '<p>Slack said &#60;b&#62;&#34;no&#34; &#38; &#39;never&#39;&#60;/b&#62;. You can close this tab.</p>',
    );
    expect(page.html).not.toContain('<b>');
  });

  it('Deny: the error Slack sends back is the answer', async () => {
    const listener = await open();
    const tab = visit(callbackAt(listener, `?error=access_denied&state=${STATE}`));
    expect(await listener.callback).toEqual({ kind: 'error', error: 'access_denied' });
    await listener.finish({ ok: false, message: 'You denied it.' });
    expect((await tab).html).toContain('You denied it. You can close this tab.');
  });

  it('the right state with neither code nor error: no_code', async () => {
    const listener = await open();
    const tab = visit(callbackAt(listener, `?state=${STATE}`));
    expect(await listener.callback).toEqual({ kind: 'error', error: 'no_code' });
    await listener.finish({ ok: false, message: 'No code.' });
    await tab;
  });

  it('a second callback while the first is being used: told it was already answered', async () => {
    const listener = await open();
    const first = visit(callbackAt(listener, `?code=one&state=${STATE}`));
    expect(await listener.callback).toEqual({ kind: 'code', code: 'one' });
    const second = await visit(callbackAt(listener, `?code=two&state=${STATE}`));
    expect(second.status).toBe(409);
    expect(second.html).toContain('<h1>Already answered</h1>');
    expect(second.html).toContain(
      'Trayshare already took the answer of this sign-in. You can close this tab.',
    );
    expect(await listener.callback).toEqual({ kind: 'code', code: 'one' });
    await listener.finish({ ok: true, message: '' });
    expect((await first).html).toContain('Trayshare is connected.');
  });
});

describe('visits that are not the answer change nothing', () => {
  it.each([
    ['without a state', '?code=forged'],
    ['with another attempt’s state', '?code=forged&state=another'],
    ['with an empty state', '?code=forged&state='],
  ])('a callback %s: told so (400), and the real answer still comes', async (_what, query) => {
    const listener = await open();
    const stray = await visit(callbackAt(listener, query));
    expect(stray.status).toBe(400);
    expect(stray.html).toContain('<h1>Not this sign-in</h1>');
    expect(stray.html).toContain('so Trayshare did not use it');
    expect(await pending(listener.callback)).toBe(true);
    const tab = visit(callbackAt(listener, `?code=real&state=${STATE}`));
    expect(await listener.callback).toEqual({ kind: 'code', code: 'real' });
    await listener.finish({ ok: true, message: '' });
    expect((await tab).status).toBe(200);
  });

  it.each([
    ['another path', '/', undefined],
    ['a path that only starts like the callback', '/slack/callbackx', undefined],
    ['a POST to the callback', '/slack/callback', 'POST'],
  ])('%s: not found, and the attempt goes on', async (_what, path, method) => {
    const listener = await open();
    const url = `http://127.0.0.1:${portOf(listener)}${path}?code=c&state=${STATE}`;
    const page = await visit(url, method ? { method } : undefined);
    expect(page.status).toBe(404);
    expect(page.html).toContain('<h1>Not found</h1>');
    expect(page.html).toContain('Nothing here.');
    expect(await pending(listener.callback)).toBe(true);
  });
});

describe('once the sign-in ends, nothing listens', () => {
  it('after the answer: a later visit finds nothing, on 127.0.0.1 and on ::1', async () => {
    const listener = await open();
    const tab = visit(callbackAt(listener, `?code=c&state=${STATE}`));
    await listener.callback;
    await listener.finish({ ok: true, message: '' });
    await tab;
    expect((await visit(callbackAt(listener, `?code=c&state=${STATE}`))).status).toBe(0);
    if (ipv6) {
      expect((await visit(callbackAt(listener, `?code=c&state=${STATE}`, '[::1]'))).status).toBe(0);
    }
  });

  it('ended without an answer (Cancel, time limit): nothing listens, and a late callback is not taken', async () => {
    const listener = await open();
    await listener.finish({ ok: false, message: 'Cancelled.' });
    expect((await visit(callbackAt(listener, `?code=late&state=${STATE}`))).status).toBe(0);
    expect(await pending(listener.callback)).toBe(true);
  });

  it('an idle connection and a half-sent request do not keep it open: both are closed', async () => {
    const listener = await open();
    const port = portOf(listener);
    const closedSockets = [0, 1].map(
      (i) =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => {
            if (i === 1) socket.write('GET /slack/callback?state=');
          });
          socket.on('error', reject);
          socket.on('close', () => resolve());
        }),
    );
    // Both connections are open on the listener before it ends.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await listener.finish({ ok: false, message: 'Cancelled.' });
    await Promise.all(closedSockets);
  });
});

describe('the port', () => {
  async function squat(port: number, host: string): Promise<Server> {
    const server = createServer((_q, r) => r.end('another program'));
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
    return server;
  }
  const free = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

  it('the first listed port taken by another program: the next one, named in the redirect URI', async () => {
    const taken = await squat(0, '127.0.0.1');
    const takenPort = (taken.address() as { port: number }).port;
    try {
      const listener = await open([takenPort, 0]);
      expect(portOf(listener)).not.toBe(takenPort);
      expect(listener.redirectUri).toMatch(/^http:\/\/localhost:\d+\/slack\/callback$/);
      // The other program still answers on its port.
      expect((await visit(`http://127.0.0.1:${takenPort}/`)).html).toBe('another program');
    } finally {
      await free(taken);
    }
  });

  it('every listed port taken: AllPortsTakenError naming each port', async () => {
    const a = await squat(0, '127.0.0.1');
    const b = await squat(0, '127.0.0.1');
    const ports = [a, b].map((s) => (s.address() as { port: number }).port);
    try {
      const error = await openLoopback({ ports, expectedState: STATE }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AllPortsTakenError);
      expect((error as Error).name).toBe('AllPortsTakenError');
      expect((error as AllPortsTakenError).ports).toEqual(ports);
      expect((error as Error).message).toBe(
        `Ports ${ports[0]}, ${ports[1]} on this computer are all taken by other programs.`,
      );
    } finally {
      await free(a);
      await free(b);
    }
  });

  it.skipIf(!ipv6)(
    'a port taken on ::1 only: not used (127.0.0.1 let go), the next port is',
    async () => {
      const taken = await squat(0, '::1');
      const takenPort = (taken.address() as { port: number }).port;
      try {
        const listener = await open([takenPort, 0]);
        expect(portOf(listener)).not.toBe(takenPort);
        // 127.0.0.1 on the taken port was let go: nothing answers there.
        expect((await visit(`http://127.0.0.1:${takenPort}/slack/callback`)).status).toBe(0);
        const tab = visit(callbackAt(listener, `?code=v6&state=${STATE}`, '[::1]'));
        expect(await listener.callback).toEqual({ kind: 'code', code: 'v6' });
        await listener.finish({ ok: true, message: '' });
        expect((await tab).status).toBe(200);
      } finally {
        await free(taken);
      }
    },
  );
});
