// The repo's reference service: a faithful local implementation of the seed's files.upload,
// the contract's answers and limits, and Slack's external upload protocol, on 127.0.0.1.
// Every end-to-end test, the CLI tests, the browser harness, the demo and the benchmarks run
// against it. Test-only endpoints under /_test/ show what arrived and inject faults.
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { readArgs } from './api-args';
import { authTest } from './api-auth-test';
import { finish, startFault } from './api-common';
import { conversationsList } from './api-conversations';
import { completeUploadExternal, getUploadUrlExternal, receiveExternalBytes } from './api-external';
import { filesInfo } from './api-files-info';
import { filesUpload } from './api-files-upload';
import { authRevoke, oauthV2Access, oauthV2UserAccess } from './api-oauth';
import { usersList } from './api-users';
import { conversationsOf, defaultTestConfig, resolveConfig, type ServiceConfig } from './config';
import type { RecordedMessage, RecordedUpload, ServiceContext } from './context';
import { Exchange, jsonAnswer, type LingerBudget, slackError, textAnswer } from './exchange';
import { ExternalUploads } from './external-uploads';
import { FaultBook, type FaultRule, parseFaultRule } from './faults';
import { authorizePage, CONSENT_PATHS, decide } from './oauth-consent';
import { OAuthGrants, type RefreshStatus } from './oauth-grants';
import { TokenBucketLimiter } from './rate-limiter';
import { type RecordedRequest, RequestLog } from './request-log';
import { SharedFiles } from './shared-files';
import { type Traffic, TrafficCounter } from './traffic';

export type { ServiceConfig } from './config';
export { defaultTestConfig } from './config';
export type { RecordedUpload } from './context';
export type { Fault, FaultRule } from './faults';
export type { RecordedRequest } from './request-log';

export interface ReferenceService {
  /** http://127.0.0.1:PORT, the base_url. */
  url: string;
  port: number;
  /** Accepted uploads in arrival order (same as GET /_test/uploads). */
  uploads(): RecordedUpload[];
  /** Messages the shares made, in order (same as GET /_test/messages). */
  messages(): RecordedMessage[];
  /** Same as POST /_test/faults with the rule as JSON. Throws on an invalid rule. */
  injectFault(rule: FaultRule): void;
  /** Same as DELETE /_test/faults. */
  clearFaults(): void;
  /** Every Web API request with its arguments and answer, when started with `recordRequests`. */
  requests(): RecordedRequest[];
  /** Connections and requests since the start or the last resetTraffic(). */
  traffic(): Traffic;
  resetTraffic(): void;
  /** Where the bytes of an accepted upload are stored. */
  storedPath(fileId: string): string;
  /** Whether a refresh token from Sign in with Slack is the current one of its sign-in (not spent). */
  refreshStatus(refreshToken: string): RefreshStatus;
  /** How many times a refresh token was exchanged for a new pair. */
  renewals(): number;
  /** Ends every sign-in of this user, as a workspace admin can in Slack. */
  revokeSignIns(user: string): void;
  /** Every authorization code, PKCE verifier, access and refresh token of Sign in with Slack so far. */
  signInSecrets(): string[];
  readonly config: ServiceConfig;
  close(): Promise<void>;
}

export interface StartOptions {
  dataDir: string;
  /** 0 or absent: a free port. */
  port?: number;
  /** Fields left out come from `baseConfig` (default: defaultTestConfig). */
  config?: Partial<ServiceConfig>;
  baseConfig?: ServiceConfig;
  /** Clock for the rate limiter and upload_url expiry; tests move it instead of waiting. */
  now?: () => number;
  /** One line per notable event; never holds a token. Default: silent. */
  log?: (line: string) => void;
  /** After an early answer, how much of the rest of the body is read and dropped. */
  linger?: Partial<LingerBudget>;
  /**
   * The base URL clients reach it at, when that is not where it listens (the bench puts a
   * latency proxy in front): upload_url, permalinks and `url` use it.
   */
  publicUrl?: string;
  /** Keep a record of every Web API request (request-log.ts); off unless asked for. */
  recordRequests?: boolean;
  /**
   * Serve https with this key and certificate (test/reference-service/tls.ts has a self-signed one for
   * 127.0.0.1): what a client pays for TLS, and whether it reuses connections, shows here.
   */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export async function startReferenceService(opts: StartOptions): Promise<ReferenceService> {
  const config = resolveConfig(opts.config ?? {}, opts.baseConfig ?? defaultTestConfig);
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => {});
  const linger: LingerBudget = { bytes: 16 * 1024 * 1024, ms: 3000, ...opts.linger };
  const filesDir = join(opts.dataDir, 'files');
  const incomingDir = join(opts.dataDir, 'incoming');
  await mkdir(filesDir, { recursive: true });
  await mkdir(incomingDir, { recursive: true });

  const recorded: RecordedUpload[] = [];
  const messages: RecordedMessage[] = [];
  let lastTs = 0;
  const faults = new FaultBook();
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  const sockets = new Set<Socket>();
  const traffic = new TrafficCounter();
  const requestLog = opts.recordRequests ? new RequestLog() : undefined;
  let url = '';

  const ctx: ServiceContext = {
    config,
    get url() {
      return url;
    },
    filesDir,
    incomingDir,
    now,
    faults,
    limiter: new TokenBucketLimiter(config.uploadsPerMinute, now, config.uploadBurst),
    listLimiter: new TokenBucketLimiter(config.listsPerMinute, now),
    usersLimiter: new TokenBucketLimiter(config.listsPerMinute, now),
    conversations: conversationsOf(config),
    external: new ExternalUploads({ dir: incomingDir, ttlMs: config.uploadUrlTtlMs, now, log }),
    files: new SharedFiles(),
    oauth: new OAuthGrants(config.oauth, now),
    revokedTokens: new Set(),
    record(upload) {
      recorded.push(upload);
      log(
        `accepted ${upload.id} (${upload.size} bytes) for ${upload.channels.join(',') || 'no channel'}`,
      );
    },
    postMessage(message) {
      // Slack's ts: seconds and microseconds; kept increasing so each message has its own.
      lastTs = Math.max(lastTs + 1, Math.floor(now()) * 1000);
      const ts = `${Math.floor(lastTs / 1e6)}.${String(lastTs % 1e6).padStart(6, '0')}`;
      messages.push({ ts, ...message });
      log(`message ${ts} with ${message.files.length} file(s) in ${message.channels.join(',')}`);
      return ts;
    },
    later(ms, fn) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        fn();
      }, ms);
      timers.add(timer);
    },
    log,
  };

  // Large files take long: no limit on the whole request, only on slow headers.
  const serverOptions = { requestTimeout: 0, headersTimeout: 60_000 };
  const server: Server = opts.tls
    ? createTlsServer({ ...serverOptions, key: opts.tls.key, cert: opts.tls.cert })
    : createServer(serverOptions);
  // Full and resumed handshakes alike: each is a TLS set-up the client paid for.
  server.on('secureConnection', () => traffic.handshake());
  const handle = (req: IncomingMessage, res: ServerResponse, waitsForContinue: boolean): void => {
    // Errors on the request stream (client gone) are handled where the body is read.
    req.on('error', () => {});
    traffic.request(req, res);
    const ex = new Exchange(req, res, waitsForContinue, linger);
    if (requestLog) {
      const { pathname, searchParams } = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (pathname.startsWith('/api/')) {
        ex.record = requestLog.open(pathname.slice('/api/'.length), searchParams);
      }
    }
    const work = route(ctx, ex, faults, recorded, messages).catch((err: unknown) => {
      log(`internal error on ${req.method} ${req.url?.split('?')[0]}: ${(err as Error).stack}`);
      if (!ex.answered) ex.refuseBeforeBody(textAnswer(500, 'Internal Server Error'));
      else res.destroy();
    });
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };
  server.on('request', (req, res) => handle(req, res, false));
  // Answering from here without `100 Continue` lets a refusal skip the body altogether.
  server.on('checkContinue', (req, res) => handle(req, res, true));
  server.on('connection', (socket) => {
    traffic.connection();
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  url = opts.publicUrl?.replace(/\/+$/, '') ?? `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    config,
    uploads: () => recorded.map((u) => ({ ...u, channels: [...u.channels] })),
    messages: () => structuredClone(messages),
    injectFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    requests: () => requestLog?.read() ?? [],
    traffic: () => traffic.read(),
    resetTraffic: () => traffic.reset(),
    storedPath: (fileId) => join(filesDir, fileId),
    refreshStatus: (token) => ctx.oauth.refreshStatus(token),
    renewals: () => ctx.oauth.renewals,
    revokeSignIns: (user) => ctx.oauth.revokeUser(user),
    signInSecrets: () => [...ctx.oauth.secrets],
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        ctx.external.close();
        for (const socket of sockets) socket.destroy();
        // Handlers see their clients go and delete partial files; wait so the data dir is quiet.
        await Promise.allSettled([...inFlight]);
        await closed;
      })();
      return closing;
    },
  };
}

async function route(
  ctx: ServiceContext,
  ex: Exchange,
  faults: FaultBook,
  recorded: RecordedUpload[],
  messages: RecordedMessage[],
): Promise<void> {
  const { req } = ex;
  const { pathname, searchParams } = new URL(req.url ?? '/', 'http://127.0.0.1');

  if (pathname.startsWith('/api/')) {
    const method = pathname.slice('/api/'.length);
    ctx.log(`${req.method} /api/${method}`);
    switch (method) {
      case 'files.upload':
        return filesUpload(ctx, ex);
      case 'auth.test':
        return authTest(ctx, ex);
      case 'files.getUploadURLExternal':
        return getUploadUrlExternal(ctx, ex);
      case 'files.completeUploadExternal':
        return completeUploadExternal(ctx, ex);
      case 'conversations.list':
        return conversationsList(ctx, ex, searchParams);
      case 'users.list':
        return usersList(ctx, ex, searchParams);
      case 'files.info':
        return filesInfo(ctx, ex, searchParams);
      case 'oauth.v2.access':
        return oauthV2Access(ctx, ex);
      case 'oauth.v2.user.access':
        return oauthV2UserAccess(ctx, ex);
      case 'auth.revoke':
        return authRevoke(ctx, ex);
      default:
        return unknownMethod(ctx, ex, method);
    }
  }

  for (const [flow, path] of Object.entries(CONSENT_PATHS) as [
    keyof typeof CONSENT_PATHS,
    string,
  ][]) {
    if (pathname === path && req.method === 'GET')
      return authorizePage(ctx, ex, searchParams, flow);
    if (pathname === `${path}/decision` && req.method === 'POST') {
      const parsed = await readArgs(ex);
      if (parsed.kind !== 'ok') return;
      return decide(ctx, ex, parsed.args);
    }
  }

  const upload = /^\/_upload\/([A-Z0-9]+)$/.exec(pathname);
  if (upload) return receiveExternalBytes(ctx, ex, upload[1]!, searchParams.get('s'));

  if (pathname === '/_test/uploads' && req.method === 'GET') {
    return ex.refuseBeforeBody(jsonAnswer(recorded));
  }
  if (pathname === '/_test/messages' && req.method === 'GET') {
    return ex.refuseBeforeBody(jsonAnswer(messages));
  }
  if (pathname === '/_test/faults' && req.method === 'DELETE') {
    faults.clear();
    return ex.refuseBeforeBody(jsonAnswer({ ok: true }));
  }
  if (pathname === '/_test/faults' && req.method === 'POST') {
    const parsed = await readArgs(ex);
    if (parsed.kind === 'aborted') return;
    if (parsed.kind === 'invalid')
      return ex.send(jsonAnswer({ ok: false, error: parsed.code }, 400));
    let rule: FaultRule;
    try {
      rule = parseFaultRule(parsed.args);
    } catch (err) {
      return ex.send(jsonAnswer({ ok: false, error: (err as Error).message }, 400));
    }
    faults.add(rule);
    return ex.send(jsonAnswer({ ok: true }));
  }
  return ex.refuseBeforeBody(textAnswer(404, 'Not Found'));
}

/** Slack answers unknown_method; faults may still target the name, to script odd services. */
async function unknownMethod(ctx: ServiceContext, ex: Exchange, method: string): Promise<void> {
  const fault = await startFault(ctx, ex, method);
  if (fault === 'handled') return;
  return finish(ctx, ex, fault, slackError('unknown_method'), false);
}
