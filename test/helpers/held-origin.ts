// Another origin in front of the reference service: a plain HTTP server on 127.0.0.1 that passes
// every request on to the service and keeps what each carried (its Authorization header and
// body), so a test can say which tokens reached which host. It can also hold the answer to one
// Web API method until the test lets it go: the real async code then waits exactly where it
// would wait for a slow service, without any timer.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { errorMessage } from '../../main/portable/error-message';

interface SeenRequest {
  /** The path with its query, as the client sent it. */
  path: string;
  /** The Authorization header and the body, as text: where a token can travel. */
  carried: string;
}

interface HeldAnswer {
  /** Resolves once a request for the method has arrived and is being held. */
  readonly reached: Promise<void>;
  /** Passes the held request on to the service. */
  release(): void;
}

export interface HeldOrigin {
  /** http://127.0.0.1:PORT: the base URL of a workspace at this origin. */
  readonly url: string;
  readonly seen: SeenRequest[];
  /** Whether any request to this origin carried `secret`. */
  carried(secret: string): boolean;
  /** Holds the next request for this Web API method (auth.test…) until released. */
  hold(method: string): HeldAnswer;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function heldOrigin(target: string): Promise<HeldOrigin> {
  const seen: SeenRequest[] = [];
  const holds = new Map<string, { arrived(): void; released: Promise<void> }>();
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (req, res) => {
    try {
      const body = await bodyOf(req);
      const path = req.url ?? '/';
      seen.push({
        path,
        carried: `${req.headers.authorization ?? ''}\n${body.toString('latin1')}`,
      });
      const method = /^\/api\/([^?/]+)/.exec(path)?.[1];
      const held = method === undefined ? undefined : holds.get(method);
      if (method !== undefined && held) {
        holds.delete(method);
        held.arrived();
        await held.released;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (name === 'host' || name === 'connection' || name === 'content-length') continue;
        if (typeof value === 'string') headers.set(name, value);
      }
      const answer = await fetch(`${target}${path}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
        redirect: 'manual',
      });
      const bytes = Buffer.from(await answer.arrayBuffer());
      const type = answer.headers.get('content-type');
      res.writeHead(answer.status, type ? { 'content-type': type } : {});
      res.end(bytes);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`held-origin: ${errorMessage(error)}`);
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    seen,
    carried: (secret) => seen.some((r) => r.carried.includes(secret)),
    hold(method) {
      let arrived = () => {};
      let release = () => {};
      const reached = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.set(method, { arrived, released });
      return { reached, release };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const held of holds.values()) held.arrived();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
