// The loopback listener of Sign in with Slack (RFC 8252 §7.3): one-shot, on the loopback
// addresses only, at the first free one of the fixed ports the Slack app lists (slack-sign-in.ts
// says why they are fixed, and why several). The redirect URI names `localhost` (Slack's word
// for a desktop redirect), which a browser may resolve to 127.0.0.1 or to ::1 first, and not
// every browser or proxy setting falls back from one to the other: so both are listened on, ::1
// where the machine has it.
//
// Only a callback carrying this attempt's `state` is its answer: any web page can make the
// browser visit the callback URL, so a visit without the right state is told so and changes
// nothing (RFC 6749 §10.12); the attempt still ends only with the right state, Cancel, or the
// time limit. The answer is held open until the sign-in has finished, so the tab can say how it
// ended; then every connection is closed, idle and half-sent ones too (a socket left open must
// never keep the sign-in waiting), and any later visit finds nothing listening.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SLACK_REDIRECT_PATH, slackRedirectUri } from '../../portable/slack-sign-in';
import { nodeHttp } from '../upload/node-transport';

export type CallbackOutcome = { kind: 'code'; code: string } | { kind: 'error'; error: string };

/** How the sign-in ended, for its tab: connected, not (and why), or waiting for the person in the app. */
export interface TabOutcome {
  ok: boolean | 'confirm';
  message: string;
}

export interface LoopbackListener {
  /** The redirect_uri to send: http://localhost:PORT/slack/callback. */
  redirectUri: string;
  /** The attempt's callback; never rejects. */
  callback: Promise<CallbackOutcome>;
  /** Answers the waiting tab (if any) with how the sign-in ended, and closes. */
  finish(outcome: TabOutcome): Promise<void>;
}

class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`Port ${port} on this computer is taken by another program.`);
    this.name = 'PortInUseError';
  }
}

/** Every port the Slack app lists is taken. */
export class AllPortsTakenError extends Error {
  constructor(readonly ports: readonly number[]) {
    super(`Ports ${ports.join(', ')} on this computer are all taken by other programs.`);
    this.name = 'AllPortsTakenError';
  }
}

/** How long the tab's answer may take to leave before its connection is closed anyway. */
const ANSWER_FLUSH_MS = 1000;

function html(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(res: ServerResponse, status: number, title: string, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    // Nothing to load, nothing to run: the page is two sentences.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    connection: 'close',
  });
  res.end(
    `<!doctype html><html><head><meta charset="utf-8"><title>${html(title)}</title></head><body style="font:16px system-ui,sans-serif;margin:3em"><h1>${html(title)}</h1><p>${html(text)}</p></body></html>`,
  );
}

/** Where `localhost` may lead: IPv4's loopback, then IPv6's (RFC 8252 §7.3, §8.3). */
const LOOPBACK_HOSTS = ['127.0.0.1', '::1'] as const;

/** The machine has no such address (IPv6 off, or no IPv6 at all): that host is not listened on. */
const NO_SUCH_ADDRESS = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/** Listens on `host` only (never another interface); a taken port is PortInUseError. */
function listenOn(server: Server, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES' ? new PortInUseError(port) : error,
      );
    });
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** Closed, with every connection it has: idle, half-sent, or waiting for an answer. */
function closed(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Resolves once `res` has been sent (or its connection went), or after `ms` regardless. */
function sent(res: ServerResponse, ms: number): Promise<void> {
  if (res.writableFinished || res.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    res.once('finish', done);
    res.once('close', done);
  });
}

/**
 * One server per loopback host, all on the same port (the first host's, when `port` is 0). A
 * host the machine lacks is left out; a port taken on any host closes the others and is
 * PortInUseError, as the sign-in must not wait where the browser may never reach it.
 */
async function listenOnLoopbacks(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  wanted: number,
): Promise<{ servers: Server[]; port: number }> {
  const servers: Server[] = [];
  let port = wanted;
  for (const host of LOOPBACK_HOSTS) {
    const server = nodeHttp().createServer(handle);
    try {
      port = await listenOn(server, port, host);
      servers.push(server);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (host !== LOOPBACK_HOSTS[0] && NO_SUCH_ADDRESS.has(code)) continue;
      await Promise.all(servers.map(closed));
      throw error;
    }
  }
  return { servers, port };
}

/** What the browser tab says once the sign-in has ended. */
function endingPage(res: ServerResponse, outcome: TabOutcome): void {
  if (outcome.ok === 'confirm') {
    page(res, 200, 'Go back to Trayshare', `${outcome.message} You can close this tab.`);
  } else if (outcome.ok) {
    page(res, 200, 'Trayshare is connected', 'Trayshare is connected. You can close this tab.');
  } else {
    page(res, 200, 'Trayshare could not sign in', `${outcome.message} You can close this tab.`);
  }
}

/** The first of `ports` free on every loopback host; AllPortsTakenError when none is. */
async function listenOnFirstFree(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  ports: readonly number[],
): Promise<{ servers: Server[]; port: number }> {
  for (const port of ports) {
    try {
      return await listenOnLoopbacks(handle, port);
    } catch (error) {
      if (!(error instanceof PortInUseError)) throw error;
    }
  }
  throw new AllPortsTakenError(ports);
}

export async function openLoopback(opts: {
  /** Tried in order; 0 is any free port (tests). */
  ports: readonly number[];
  expectedState: string;
}): Promise<LoopbackListener> {
  let held: ServerResponse | undefined;
  let settle!: (outcome: CallbackOutcome) => void;
  const callback = new Promise<CallbackOutcome>((resolve) => {
    settle = resolve;
  });
  let answered = false;
  let tabOutcome: TabOutcome | undefined;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' || url.pathname !== SLACK_REDIRECT_PATH) {
      page(res, 404, 'Not found', 'Nothing here.');
      return;
    }
    if (answered) {
      // The listener closes right after the first callback; this covers one racing it.
      page(
        res,
        409,
        'Already answered',
        'Trayshare already took the answer of this sign-in. You can close this tab.',
      );
      return;
    }
    if (url.searchParams.get('state') !== opts.expectedState) {
      // Not this attempt's answer: told so, and the attempt goes on waiting for its own.
      page(
        res,
        400,
        'Not this sign-in',
        'This page does not belong to the sign-in Trayshare is waiting for, so Trayshare did not use it. If you started a sign-in, approve it in the tab Trayshare opened.',
      );
      return;
    }
    answered = true;
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    held = res;
    if (tabOutcome) void answerTab(tabOutcome);
    settle(code ? { kind: 'code', code } : { kind: 'error', error: error ?? 'no_code' });
  };

  const { servers, port } = await listenOnFirstFree(handle, opts.ports);

  function answerTab(outcome: TabOutcome): Promise<void> {
    if (!held) return Promise.resolve();
    const res = held;
    held = undefined;
    endingPage(res, outcome);
    return sent(res, ANSWER_FLUSH_MS);
  }

  let closing: Promise<void> | undefined;
  return {
    redirectUri: slackRedirectUri(port),
    callback,
    finish(outcome) {
      tabOutcome = outcome;
      // The tab's answer leaves first; then nothing stays open, whatever else is connected.
      closing ??= answerTab(outcome)
        .then(() => Promise.all(servers.map(closed)))
        .then(() => {});
      return closing;
    },
  };
}
