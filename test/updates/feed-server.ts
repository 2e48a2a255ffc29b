// A generic-provider update feed on 127.0.0.1, as electron-builder publishes one: the channel
// files (latest-linux.yml, latest.yml, latest-mac.yml) naming the update file with its real
// sha512 (base64, as builder-util-runtime's DigestTransform compares it), and the file itself.
// What it answers is switched per case; every request is recorded.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type FeedMode =
  /** Offers `version` with a file whose sha512 matches. */
  | 'offer'
  /** Offers `version`, but the file served is not the one the sha512 describes. */
  | 'tampered'
  /** A captive portal or a misconfigured proxy: an HTML page for every path. */
  | 'html';

export interface Feed {
  url: string;
  /** Paths requested, in order, without the query electron-updater adds. */
  requests: string[];
  /** What the file served under `fileName` holds when it is the real one. */
  bytes: Buffer;
  fileName: string;
  set(mode: FeedMode, version: string): void;
  close(): Promise<void>;
}

const CHANNEL_FILES = new Set(['/latest-linux.yml', '/latest.yml', '/latest-mac.yml']);

export function sha512Base64(bytes: Buffer): string {
  return createHash('sha512').update(bytes).digest('base64');
}

function channelYaml(version: string, fileName: string, bytes: Buffer): string {
  // The shape electron-builder 26 writes (updateInfoBuilder.ts): files[] with url, sha512 and
  // size, the legacy path/sha512 of the first file, and releaseDate.
  const sha512 = sha512Base64(bytes);
  return [
    `version: ${version}`,
    'files:',
    `  - url: ${fileName}`,
    `    sha512: ${sha512}`,
    `    size: ${bytes.length}`,
    `path: ${fileName}`,
    `sha512: ${sha512}`,
    `releaseDate: '2026-11-25T18:00:00.000Z'`,
    '',
  ].join('\n');
}

export async function startFeed(): Promise<Feed> {
  let mode: FeedMode = 'offer';
  let version = '1.2.0';
  const fileName = () => `Trayshare-${version}.AppImage`;
  const bytesOf = (v: string) => Buffer.from(`Trayshare ${v} AppImage\n${'x'.repeat(64 * 1024)}`);
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    requests.push(path);
    if (mode === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        '<!doctype html>\n<html><head><title>Sign in to Wi-Fi</title></head><body>Accept: the terms</body></html>\n',
      );
      return;
    }
    if (CHANNEL_FILES.has(path)) {
      res.writeHead(200, { 'content-type': 'text/yaml' });
      res.end(channelYaml(version, fileName(), bytesOf(version)));
      return;
    }
    if (path === `/${fileName()}`) {
      const real = bytesOf(version);
      // Same length, one byte changed: only the hash can tell.
      const body = mode === 'tampered' ? Buffer.from(real).fill(0x79, 100, 101) : real;
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': body.length,
      });
      res.end(body);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    get bytes() {
      return bytesOf(version);
    },
    get fileName() {
      return fileName();
    },
    set(next, nextVersion) {
      mode = next;
      version = nextVersion;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
