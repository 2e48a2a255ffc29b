// Connections opened before they are asked for. A share over a real link pays a TCP round trip
// and a TLS 1.3 round trip before its first request can go; a fresh `trayshare send` knows
// where it will send long before it sends (Node loads the CLI's modules, reads the settings and
// stats the files first: 100–200 ms), so it opens its connections to the API host at its start
// and the set-up overlaps that work (bench/notes.md). The transport's keep-alive
// agents (node-transport.ts) take a warm connection to their origin before opening a new one.
//
// Only what a request would do anyway is done ahead: the same host and port, the same default
// trust (a certificate the request would refuse fails the warm connection the same way, and
// the request that takes it reports it), nothing is written. A warm connection nobody takes is
// closed after WARM_MS and never keeps a process alive. Through a proxy nothing is opened
// ahead: the proxy's own agent makes its connections (env-proxy.ts).
//
// The upload host too. Slack's upload_url is on another host than its API (files.slack.com for
// slack.com in the method's example answer: slack-ruby/slack-api-ref
// methods/files/files.getUploadURLExternal.json), so a share's byte uploads pay their own TCP
// and TLS set-up, two round trips, unless that host is warm. Nothing documents the host, so it
// is learnt: the upload address a step-1 answer gave, once step 2 accepted it (send-file.ts),
// is remembered per API origin for the life of the process, and shareOrigins names both for a
// transport's `warm`. The running app calls it when the share sheet opens (prepareShare), so a share
// minutes after the last one, whose kept connections have closed, finds both hosts warm.

import type { Agent } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { isLoopbackHost } from '../../portable/credentials';

const require = createRequire(import.meta.url);

/** A warm connection no request took is closed after this (the pool's idle limit). */
const WARM_MS = 4000;
/** Never more than this many warm connections per origin (a share's step-1 requests at once). */
const MOST_PER_ORIGIN = 10;

/** The variables that can name a proxy (proxy-variables.ts, proxy-from-env's list), any case. */
const namesProxy = () =>
  ['https_proxy', 'http_proxy', 'all_proxy'].some(
    (name) => Boolean(process.env[name]) || Boolean(process.env[name.toUpperCase()]),
  );

const warm = new Map<string, Socket[]>();
/** The upload origin learnt for an API origin (at most MOST_REMEMBERED API origins). */
const uploadOrigins = new Map<string, string>();
const MOST_REMEMBERED = 32;
/** Warm TLS connections whose handshake is still under way. */
const handshaking = new WeakSet<Socket>();
const timers = new WeakMap<Socket, ReturnType<typeof setTimeout>>();
const ignore = () => {};
/** One TLS context for every warm connection (see warmTlsContext). */
let tlsContext: import('node:tls').SecureContext | undefined;

/**
 * The default trust, made once: tls.connect without a context builds its own for every
 * connection ("one will be created by passing the entire options object to
 * tls.createSecureContext()", https://nodejs.org/api/tls.html#tlsconnectoptions-callback),
 * about half a millisecond each, which for a share's twenty warm connections delayed the last
 * ones' set-up by 9 ms at the start of a send. Made with no options, it is the context a
 * request's own connection gets (Node's roots and NODE_EXTRA_CA_CERTS).
 */
function warmTlsContext(tls: typeof import('node:tls')): import('node:tls').SecureContext {
  tlsContext ??= tls.createSecureContext();
  return tlsContext;
}

/**
 * Opens up to `count` connections to `url`'s origin ahead of its requests (at most
 * MOST_PER_ORIGIN warm at once). Does nothing for a proxy, an address that is not http(s), or
 * when called again with fewer than are warm already.
 */
export function preconnect(url: string, count: number): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return;
  }
  const secure = u.protocol === 'https:';
  if ((!secure && u.protocol !== 'http:') || namesProxy()) return;
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(u.port || (secure ? 443 : 80));
  // Taken with `require` when needed, as node-transport.ts takes node:http (the CLI's entry imports
  // this module).
  const net = require('node:net') as typeof import('node:net');
  const tls = secure ? (require('node:tls') as typeof import('node:tls')) : undefined;
  const list = warm.get(u.origin) ?? [];
  warm.set(u.origin, list);
  for (let i = list.length; i < Math.min(count, MOST_PER_ORIGIN); i++) {
    const socket: Socket = tls
      ? tls.connect({
          host,
          port,
          secureContext: warmTlsContext(tls),
          // As Node's https agent names the server: by its host name, never by an IP address.
          ...(net.isIP(host) ? {} : { servername: host }),
        })
      : net.connect({ host, port });
    socket.on('error', ignore);
    socket.unref();
    if (tls) {
      handshaking.add(socket);
      socket.once('secureConnect', () => handshaking.delete(socket));
    }
    socket.once('close', () => {
      const at = list.indexOf(socket);
      if (at >= 0) list.splice(at, 1);
    });
    const timer = setTimeout(() => socket.destroy(), WARM_MS);
    timer.unref();
    timers.set(socket, timer);
    list.push(socket);
  }
}

/**
 * The origin of `url` when it may be kept as an upload host: https on port 443, the only kind
 * Slack's upload addresses are (files.slack.com), so neither an answer nor the file the CLI
 * keeps them in (upload-hosts.ts) can have a connection opened ahead to another port or over
 * plain http. A loopback host is the exception, on any https port, as checkBaseUrl allows plain
 * http there: it is this computer (a local Slack-style service, the tests' reference service).
 */
export function keptUploadOrigin(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' || u.username !== '' || u.password !== '') return undefined;
  // URL leaves the port empty when it is the scheme's default, 443.
  return u.port === '' || isLoopbackHost(u.hostname) ? u.origin : undefined;
}

/**
 * Remembers that `apiBase`'s service gave an upload address at `uploadUrl`'s origin, when it is
 * another origin (the API's own connections serve it otherwise) and one that may be kept
 * (keptUploadOrigin). The caller calls this once step 2 to that address succeeded.
 */
export function learnUploadHost(apiBase: string, uploadUrl: string): void {
  const api = originOf(apiBase);
  const upload = keptUploadOrigin(uploadUrl);
  if (!api || !upload || api === upload || uploadOrigins.get(api) === upload) return;
  uploadOrigins.delete(api);
  if (uploadOrigins.size >= MOST_REMEMBERED) {
    uploadOrigins.delete(uploadOrigins.keys().next().value as string);
  }
  uploadOrigins.set(api, upload);
}

/** Every upload origin learnt, by API origin (upload-hosts.ts keeps them for the CLI). */
export function knownUploadHosts(): Record<string, string> {
  return Object.fromEntries(uploadOrigins);
}

/**
 * The https origins a share to `apiBase` uses, to warm: its API origin, and the upload origin
 * learnt for it. Plain http is left out: it may only go to this computer (checkBaseUrl), where
 * a connection costs nothing to open, and a TLS set-up is the round trips worth hiding.
 */
export function shareOrigins(apiBase: string): string[] {
  const api = originOf(apiBase);
  if (!api) return [];
  const upload = uploadOrigins.get(api);
  return (upload ? [api, upload] : [api]).filter((origin) => origin.startsWith('https:'));
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** A warm connection to `origin`, handed over (no longer closed when unused), or undefined. */
function takeWarm(origin: string): Socket | undefined {
  const list = warm.get(origin);
  while (list && list.length > 0) {
    const socket = list.shift()!;
    if (socket.destroyed) continue;
    clearTimeout(timers.get(socket));
    socket.off('error', ignore);
    socket.ref();
    return socket;
  }
  return undefined;
}

/** Whether a connection's TLS handshake is still under way (for a warm one, see above). */
export function stillHandshaking(socket: Socket): boolean {
  return handshaking.has(socket);
}

/** The agent for `origin` takes a warm connection, when there is one, before making its own. */
export function takesWarmConnections(agent: Agent, origin: string): void {
  const make = agent.createConnection.bind(agent);
  const idleMs = (agent as Agent & { options: { timeout?: number } }).options.timeout;
  agent.createConnection = ((options, onCreate) => {
    const socket = takeWarm(origin);
    if (!socket) return make(options, onCreate);
    // As the agent's own connections are made: its idle limit on the socket.
    if (idleMs) socket.setTimeout(idleMs);
    return socket;
  }) as Agent['createConnection'];
}
