// The reference service checked against Slack's own reference (slack-facts.json), over a
// representative run of the client's code paths (client-run.ts) with the service's request log
// on: what the client sends is documented, what the service answers is documented, and its
// success answers carry what Slack's examples carry for the keys the client reads.
// Sign in with Slack has its own part at the end (issue 32).
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppService } from '../../main/core/app-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { slackRedirectUri } from '../../main/portable/slack-sign-in';
import { freePort, signInAndKeep } from '../auth/sign-in-helpers';
import { createMemorySecretStore } from '../harness/memory-secrets';
import { consent } from '../reference-service/consent-client';
import { DEFAULT_CLIENT_ID } from '../reference-service/oauth-config';
import { callApi } from '../reference-service/raw-client';
import {
  defaultTestConfig,
  type RecordedRequest,
  startReferenceService,
} from '../reference-service/server';
import { clientRun, provokeRefusals, RUN_CONFIG } from './client-run';
import {
  DOUBLE_ONLY_ERRORS,
  differencesFromExamples,
  documentedError,
  factsOf,
  UNDOCUMENTED_ARGS,
} from './facts';

const OAUTH = new Set(['oauth.v2.access', 'oauth.v2.user.access']);

let dir: string;
let client: RecordedRequest[];
let everything: RecordedRequest[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-double-'));
  const service = await startReferenceService({
    dataDir: join(dir, 'service'),
    recordRequests: true,
    config: RUN_CONFIG,
  });
  // Rate limits on, so that their refusals are answered too.
  const limited = await startReferenceService({
    dataDir: join(dir, 'limited'),
    recordRequests: true,
    config: { uploadsPerMinute: 1, listsPerMinute: 1 },
  });
  try {
    await clientRun(service, dir);
    client = service.requests();
    await provokeRefusals(service);
    for (const method of ['files.getUploadURLExternal', 'conversations.list', 'users.list']) {
      for (let i = 0; i < 2; i++)
        await callApi(limited.url, method, { filename: 'z', length: '1' });
    }
    everything = [...service.requests(), ...limited.requests()];
  } finally {
    await service.close();
    await limited.close();
  }
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const errorOf = (r: RecordedRequest): string | undefined => {
  const body = r.answer?.body as { ok?: unknown; error?: unknown } | undefined;
  return body?.ok === false && typeof body.error === 'string' ? body.error : undefined;
};

/** Arguments the client sent that Slack does not document for the method. */
function undocumentedArgs(requests: readonly RecordedRequest[]): string[] {
  const found: string[] = [];
  for (const r of requests) {
    const facts = factsOf(r.method);
    for (const [name, value] of Object.entries(r.args)) {
      if (!(name in facts.args) && !UNDOCUMENTED_ARGS[r.method]?.includes(name)) {
        found.push(`${r.method}: ${name}`);
      }
      // An array argument's items (files=[{"id","title"}]) hold documented keys only.
      const itemKeys = facts.argItemKeys?.[name];
      if (itemKeys && typeof value === 'string') {
        for (const item of JSON.parse(value) as Record<string, unknown>[]) {
          for (const key of Object.keys(item)) {
            if (!itemKeys.includes(key)) found.push(`${r.method}: ${name}[].${key}`);
          }
        }
      }
    }
  }
  return [...new Set(found)];
}

function undocumentedErrors(requests: readonly RecordedRequest[]): string[] {
  const found = requests.flatMap((r) => {
    const code = errorOf(r);
    if (!code || documentedError(r.method, code)) return [];
    return DOUBLE_ONLY_ERRORS[r.method]?.includes(code) ? [] : [`${r.method}: ${code}`];
  });
  return [...new Set(found)];
}

function unlikeExamples(requests: readonly RecordedRequest[]): string[] {
  return requests
    .filter((r) => (r.answer?.body as { ok?: unknown } | undefined)?.ok === true)
    .flatMap((r) =>
      differencesFromExamples(r.method, r.answer!.body).map((d) => `${r.method} ${d}`),
    );
}

describe('the double against Slack’s reference, over a run of the client', () => {
  it('the run went through every method the client calls', () => {
    expect([...new Set(client.map((r) => r.method))].sort()).toEqual([
      'auth.revoke',
      'auth.test',
      'conversations.list',
      'files.completeUploadExternal',
      'files.getUploadURLExternal',
      'files.info',
      'files.upload',
      'users.list',
    ]);
  });

  it('every argument the client sent is documented for its method', () => {
    expect(undocumentedArgs(client)).toEqual([]);
  });

  it('every error code the service answered is documented for its method, or one of Slack’s general errors', () => {
    expect(undocumentedErrors(everything)).toEqual([]);
  });

  it('the refusals seen are every refusal the service has (none is left unchecked)', () => {
    // Codes written in the service's handlers; Sign in with Slack's (api-oauth.ts,
    // oauth-grants.ts, oauth-consent.ts) are checked in its own part below.
    const serviceDir = join(import.meta.dirname, '..', 'reference-service');
    const written = new Set<string>();
    for (const name of readdirSync(serviceDir)) {
      if (!/^(api-(?!oauth).*|direct-messages)\.ts$/.test(name) || name.endsWith('.test.ts')) {
        continue;
      }
      const text = readFileSync(join(serviceDir, name), 'utf8');
      const codes = /(?:slackError\(|error: |code: )'([a-z_]+)'|return '([a-z]+_[a-z_]+)'/g;
      for (const m of text.matchAll(codes)) written.add((m[1] ?? m[2])!);
    }
    const answered = new Set(everything.map(errorOf).filter(Boolean));
    expect([...written].filter((code) => !answered.has(code)).sort()).toEqual([]);
  });

  it('every success answer carries the key paths Slack’s example has for the keys the client reads, with the same types', () => {
    expect(unlikeExamples(everything.filter((r) => !OAUTH.has(r.method)))).toEqual([]);
  });
});

// ---- Sign in with Slack (issue 32) ----

describe('Sign in with Slack against Slack’s reference', () => {
  let opened: string[];
  let signIn: RecordedRequest[];

  beforeAll(async () => {
    const port = await freePort();
    const service = await startReferenceService({
      dataDir: join(dir, 'oauth-service'),
      recordRequests: true,
      config: {
        oauth: {
          ...defaultTestConfig.oauth,
          apps: [{ clientId: DEFAULT_CLIENT_ID, redirectUrls: [slackRedirectUri(port)] }],
        },
      },
    });
    opened = [];
    const app = await createAppService({
      dataDir: join(dir, 'oauth-app'),
      secrets: createMemorySecretStore(),
      transport: createNodeTransport(),
      signInPort: port,
      openBrowser: async (url) => {
        opened.push(url);
        void consent(url);
      },
    });
    try {
      const result = await signInAndKeep(app, {
        baseUrl: service.url,
        clientId: DEFAULT_CLIENT_ID,
      });
      if (!result.ok) throw new Error(`the sign-in failed: ${result.message}`);
      await app.signOut(result.workspaceId);
      // A wrong code, as a replayed or forged redirect would bring.
      const exchange = signInMethod(service.requests());
      await callApi(service.url, exchange, { client_id: DEFAULT_CLIENT_ID, code: 'x' }, null);
      signIn = service.requests();
    } finally {
      await app.close();
      await service.close();
    }
  }, 60_000);

  const signInMethod = (requests: readonly RecordedRequest[]) =>
    requests.find((r) => OAUTH.has(r.method))?.method ?? 'oauth.v2.access';

  it('what the sign-in sends is documented, and what the service answers it too', () => {
    expect(signIn.some((r) => OAUTH.has(r.method))).toBe(true);
    expect(signIn.some((r) => r.method === 'auth.revoke')).toBe(true);
    expect(undocumentedArgs(signIn.filter((r) => r.args.client_id !== undefined))).toEqual([]);
    expect(undocumentedErrors(signIn)).toEqual([]);
  });

  // This failed before issue 32: the client and the double used the user-only pair
  // (/oauth/v2_user/authorize with oauth.v2.user.access, whose documented answer has the token at
  // the top level) while reading the token from authed_user, as only oauth.v2.access answers it.
  it('uses Slack’s PKCE pair (/oauth/v2/authorize, then oauth.v2.access) and its answers are like Slack’s examples', () => {
    expect(opened.map((url) => new URL(url).pathname)).toEqual(['/oauth/v2/authorize']);
    const exchanges = signIn.filter((r) => OAUTH.has(r.method));
    expect(exchanges.map((r) => r.method)).toContain('oauth.v2.access');
    expect(exchanges.map((r) => r.method)).not.toContain('oauth.v2.user.access');
    // Renewals answer at the top level (node-slack-sdk packages/oauth/src/install-provider.ts,
    // refreshExpiringToken), a shape slack-api-ref has no example of: only code exchanges here.
    const codeExchanges = exchanges.filter((r) => r.args.grant_type !== 'refresh_token');
    expect(unlikeExamples(codeExchanges)).toEqual([]);
  });
});
