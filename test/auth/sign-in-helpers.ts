// What the Sign in with Slack tests share: a free loopback port that the reference service's
// Slack app lists as its redirect URL (the real one is fixed, but tests run side by side), the
// real app service on it, and a person at the browser who acts on the consent page.
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { AppService, CoreApi, SignInEnd, SignInRequest } from '../../main/core/api';
import { createAppService } from '../../main/core/app-service';
import type { SecretStore } from '../../main/core/secrets/secret-store';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { slackRedirectUri } from '../../main/portable/slack-sign-in';
import {
  type ConsentChoice,
  type ConsentOutcome,
  consent,
} from '../reference-service/consent-client';
import { DEFAULT_CLIENT_ID, type OAuthConfig } from '../reference-service/oauth-config';
import {
  defaultTestConfig,
  type ReferenceService,
  startReferenceService,
} from '../reference-service/server';

export { DEFAULT_CLIENT_ID };

export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

/** `count` different ports, free right now (each held until all are found). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  const ports: number[] = [];
  for (const server of servers) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ports.push((server.address() as { port: number }).port);
  }
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  return ports;
}

/** The reference service, whose Slack app lists a redirect URL for each of `ports`. */
export async function serviceFor(
  dir: string,
  ports: number | readonly number[],
  oauth: Partial<OAuthConfig> = {},
  now?: () => number,
): Promise<ReferenceService> {
  const listed = (typeof ports === 'number' ? [ports] : ports).map((p) => slackRedirectUri(p));
  return startReferenceService({
    dataDir: join(dir, 'service'),
    ...(now ? { now } : {}),
    config: {
      oauth: {
        ...defaultTestConfig.oauth,
        apps: [{ clientId: DEFAULT_CLIENT_ID, redirectUrls: listed }],
        ...oauth,
      },
    },
  });
}

/** A browser the app opens: the person then does `choice` on the page (unless it is 'away'). */
export function browser(choice: ConsentChoice | 'away' = {}) {
  const opened: string[] = [];
  const outcomes: Promise<ConsentOutcome>[] = [];
  return {
    opened,
    /** What the person saw, in order. */
    outcomes,
    open: async (url: string) => {
      opened.push(url);
      if (choice !== 'away') outcomes.push(consent(url, choice));
    },
    set choice(next: ConsentChoice | 'away') {
      choice = next;
    },
  };
}

export async function openApp(opts: {
  root: string;
  dataDir?: string;
  /** One port, or the ports tried in order. */
  port: number | readonly number[];
  secrets: SecretStore;
  openBrowser?: (url: string) => Promise<void>;
  timeoutMs?: number;
}): Promise<{ app: AppService; dataDir: string }> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(opts.root, 'app-')));
  const app = await createAppService({
    dataDir,
    secrets: opts.secrets,
    transport: createNodeTransport(),
    retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 10 },
    signInPorts: typeof opts.port === 'number' ? [opts.port] : opts.port,
    ...(opts.openBrowser ? { openBrowser: opts.openBrowser } : {}),
    ...(opts.timeoutMs ? { signInTimeoutMs: opts.timeoutMs } : {}),
  });
  return { app, dataDir };
}

/**
 * Signs in and, when the core asks the person to confirm who signed in (a new workspace, or
 * another account), keeps it as a person who recognises their own account would.
 */
export async function signInAndKeep(
  app: Pick<CoreApi, 'signInWithSlack' | 'confirmSignIn'>,
  request: SignInRequest,
): Promise<SignInEnd> {
  const result = await app.signInWithSlack(request);
  return result.ok === 'confirm' ? app.confirmSignIn(result.pendingId, true) : result;
}

/**
 * What auth.test answers for each access token the service issued by Sign in with Slack, in
 * the order issued: undefined while one works, 'token_revoked' once it was ended.
 */
export async function issuedTokens(service: ReferenceService): Promise<(string | undefined)[]> {
  const issued = service.signInSecrets().filter((s) => s.startsWith('xoxe.xoxp-'));
  return Promise.all(
    issued.map(async (token) => {
      const res = await fetch(`${service.url}/api/auth.test`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await res.json()) as { error?: string }).error;
    }),
  );
}
