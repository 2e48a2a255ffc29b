// The sign-in's loopback listener on both loopback addresses: the redirect URI says
// `localhost`, which a browser may resolve to ::1 first, and not every browser or proxy setting
// falls back to 127.0.0.1. Real requests to [::1]:port through the real app service and the
// reference service. Skipped, with the reason printed, where the machine has no IPv6 loopback.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import { slackRedirectUri } from '../../main/portable/slack-sign-in';
import { createMemorySecretStore } from '../harness/memory-secrets';
import { type ConsentOutcome, consent, visit } from '../reference-service/consent-client';
import type { ReferenceService } from '../reference-service/server';
import { DEFAULT_CLIENT_ID, freePort, openApp, serviceFor, signInAndKeep } from './sign-in-helpers';

/** Why this machine cannot take a listener on ::1, or undefined when it can. */
async function noIpv6Loopback(): Promise<string | undefined> {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(0, '::1', resolve);
    });
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return undefined;
  } catch (error) {
    return `this machine has no IPv6 loopback (::1: ${(error as NodeJS.ErrnoException).code})`;
  }
}

const skipReason = await noIpv6Loopback();
if (skipReason) console.warn(`test/auth/loopback-ipv6.test.ts skipped: ${skipReason}`);

let root: string;
let port: number;
let service: ReferenceService;
let app: AppService | undefined;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-loopback-'));
  port = await freePort();
  service = await serviceFor(root, port);
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  await service.close();
  await rm(root, { recursive: true, force: true });
});

async function start(openBrowser: (url: string) => Promise<void>): Promise<AppService> {
  const opened = await openApp({
    root,
    port,
    secrets: createMemorySecretStore(),
    openBrowser,
    timeoutMs: 5000,
  });
  app = opened.app;
  return opened.app;
}

const signIn = (a: AppService) =>
  signInAndKeep(a, { baseUrl: service.url, clientId: DEFAULT_CLIENT_ID });

/** The callback URL with `localhost` resolved to this loopback address. */
function at(url: string, host: '127.0.0.1' | '[::1]'): string {
  const moved = new URL(url);
  moved.hostname = host;
  return moved.toString();
}

describe.skipIf(skipReason !== undefined)('the loopback listener on 127.0.0.1 and ::1', () => {
  it('a browser that resolves localhost to ::1: signed in through [::1], and both addresses closed after', async () => {
    const outcomes: Promise<ConsentOutcome & { landing: { status: number; html: string } }>[] = [];
    const a = await start(async (url) => {
      outcomes.push(
        consent(url, { followRedirect: false }).then(async (outcome) => ({
          ...outcome,
          landing: await visit(at(outcome.redirectedTo ?? '', '[::1]')),
        })),
      );
    });
    const result = await signIn(a);
    expect(result).toMatchObject({ ok: true, user: '@alice', team: 'Trayshare Reference' });
    const outcome = await outcomes[0]!;
    expect(outcome.redirectedTo?.startsWith(slackRedirectUri(port))).toBe(true);
    expect(outcome.landing.html).toContain(
      'Signed in as @alice in Trayshare Reference: go back to Trayshare to keep this sign-in. You can close this tab.',
    );
    // One callback was the answer; neither address listens any more.
    for (const host of ['127.0.0.1', '[::1]'] as const) {
      expect((await visit(at(outcome.redirectedTo!, host))).status, host).toBe(0);
    }
  });

  it('the port taken on ::1 only: port_in_use naming it, the browser never opens, 127.0.0.1 let go', async () => {
    const squatter: Server = createServer((_q, r) => r.end());
    await new Promise<void>((resolve) => squatter.listen(port, '::1', resolve));
    try {
      const opened: string[] = [];
      const a = await start(async (url) => {
        opened.push(url);
      });
      expect(await signIn(a)).toMatchObject({
        ok: false,
        reason: 'port_in_use',
        message: expect.stringContaining(String(port)),
      });
      expect(opened).toEqual([]);
      expect((await visit(`http://127.0.0.1:${port}/slack/callback`)).status).toBe(0);
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
  });
});
