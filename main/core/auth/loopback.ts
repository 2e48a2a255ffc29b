// The loopback listener of Sign in with Slack (RFC 8252 §7.3): one-shot, on 127.0.0.1 only,
// at the one port the Slack app lists (slack-sign-in.ts says why the port is fixed). The first
// request to the callback path is the attempt's answer: it is held open until the sign-in has
// finished, so the tab can say how it ended, then the listener closes and any later visit finds
// nothing listening. A callback whose `state` is not this attempt's ends the attempt (nothing
// is saved) and the tab says why.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SLACK_REDIRECT_PATH, slackRedirectUri } from '../../portable/slack-sign-in';
import { nodeHttp } from '../upload/node-http';

export type CallbackOutcome =
  | { kind: 'code'; code: string }
  | { kind: 'error'; error: string }
  | { kind: 'state_mismatch' };

export interface LoopbackListener {
  /** The redirect_uri to send: http://localhost:PORT/slack/callback. */
  redirectUri: string;
  /** The attempt's callback; never rejects. */
  callback: Promise<CallbackOutcome>;
  /** Answers the waiting tab (if any) with how the sign-in ended, and closes. */
  finish(outcome: { ok: boolean; message: string }): Promise<void>;
}

export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`Port ${port} on this computer is taken by another program.`);
    this.name = 'PortInUseError';
  }
}

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

/** Listens on 127.0.0.1 only (never another interface); a taken port is PortInUseError. */
function listenOn(server: Server, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES' ? new PortInUseError(port) : error,
      );
    });
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** What the browser tab says once the sign-in has ended. */
function endingPage(res: ServerResponse, outcome: { ok: boolean; message: string }): void {
  if (outcome.ok) {
    page(res, 200, 'Trayshare is connected', 'Trayshare is connected. You can close this tab.');
  } else {
    page(res, 200, 'Trayshare could not sign in', `${outcome.message} You can close this tab.`);
  }
}

export async function openLoopback(opts: {
  port: number;
  expectedState: string;
}): Promise<LoopbackListener> {
  let held: ServerResponse | undefined;
  let settle!: (outcome: CallbackOutcome) => void;
  const callback = new Promise<CallbackOutcome>((resolve) => {
    settle = resolve;
  });
  let answered = false;
  let tabOutcome: { ok: boolean; message: string } | undefined;

  const server = nodeHttp().createServer((req: IncomingMessage, res: ServerResponse) => {
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
    answered = true;
    const state = url.searchParams.get('state');
    if (state !== opts.expectedState) {
      page(
        res,
        400,
        'Not this sign-in',
        'This answer belongs to another sign-in than the one Trayshare is waiting for, so Trayshare did not use it. Start the sign-in again from Trayshare.',
      );
      settle({ kind: 'state_mismatch' });
      return;
    }
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    held = res;
    if (tabOutcome) answerTab(tabOutcome);
    settle(code ? { kind: 'code', code } : { kind: 'error', error: error ?? 'no_code' });
  });

  const port = await listenOn(server, opts.port);

  function answerTab(outcome: { ok: boolean; message: string }): void {
    if (!held) return;
    const res = held;
    held = undefined;
    endingPage(res, outcome);
  }

  let closing: Promise<void> | undefined;
  return {
    redirectUri: slackRedirectUri(port),
    callback,
    finish(outcome) {
      tabOutcome = outcome;
      answerTab(outcome);
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
