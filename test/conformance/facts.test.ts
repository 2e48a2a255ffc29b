// The client against Slack's own reference (slack-facts.json, from slack-ruby/slack-api-ref):
// every method it calls or the double serves has facts; every code Slack documents for the
// methods read through the error table has a class other than "other"; and the client's
// readers accept answers generated from each documented example's key paths and types (made
// up values, not copies), given over a scripted transport.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHODS } from '../../build/scripts/slack-facts.mjs';
import { exchangeCode } from '../../main/core/auth/oauth-client';
import { listConversations } from '../../main/core/conversations/conversations-list';
import { listUsers } from '../../main/core/conversations/users-list';
import { authTest } from '../../main/core/upload/auth-test';
import { uploadOnce } from '../../main/core/upload/engine';
import { serviceError } from '../../main/core/upload/error-messages';
import { uploadExternal } from '../../main/core/upload/external/send-file';
import type {
  Transport,
  TransportRequest,
  TransportResponse,
} from '../../main/core/upload/transport';
import { CLIENT_READS, FACTS, factsOf, generatedAnswer, READS_BEYOND_EXAMPLES } from './facts';

const root = join(import.meta.dirname, '..', '..');
const BASE = 'http://127.0.0.1:9';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe("Slack's facts", () => {
  it('come from a named slack-api-ref commit and cover every method the client calls or the double serves', () => {
    expect(FACTS.source.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(Object.keys(FACTS.methods).sort()).toEqual([...METHODS].sort());
    const called = new Set<string>();
    for (const file of sources(join(root, 'main'))) {
      const text = readFileSync(file, 'utf8');
      const named = [
        /apiUrl\([^,]+,\s*'([a-zA-Z0-9.]+)'\)/g,
        /method: '((?:conversations|users)\.[a-zA-Z]+)'/g,
        /(?:METHOD|method) = '([a-z]+\.[a-zA-Z0-9.]+)'/g,
      ];
      for (const pattern of named) for (const m of text.matchAll(pattern)) called.add(m[1]!);
    }
    const server = readFileSync(join(root, 'test', 'reference-service', 'server.ts'), 'utf8');
    const served = [...server.matchAll(/case '([a-zA-Z]+\.[a-zA-Z0-9.]+)':/g)].map((m) => m[1]!);
    expect([...called].sort()).toEqual(
      expect.arrayContaining([
        'auth.revoke',
        'auth.test',
        'conversations.list',
        'files.completeUploadExternal',
        'files.getUploadURLExternal',
        'files.info',
        'files.upload',
        'users.list',
      ]),
    );
    for (const method of [...called, ...served]) expect(METHODS, method).toContain(method);
  });
});

describe('the keys the client reads', () => {
  it('each is in an example answer of its method, or listed with where Slack shows it', () => {
    const unseen = Object.entries(CLIENT_READS).flatMap(([method, reads]) =>
      reads
        .filter((path) => !factsOf(method).examples.some((e) => e[path] !== undefined))
        .filter((path) => !READS_BEYOND_EXAMPLES[method]?.includes(path))
        .map((path) => `${method}: ${path}`),
    );
    expect(unseen).toEqual([]);
  });
});

/**
 * The methods the client calls whose codes the error table classes (documented-errors.ts): all
 * but Sign in with Slack's, read by main/core/auth/sign-in-messages.ts.
 */
const TABLE_METHODS = [
  'files.upload',
  'files.getUploadURLExternal',
  'files.completeUploadExternal',
  'files.info',
  'auth.test',
  'auth.revoke',
  'conversations.list',
  'users.list',
];

describe('the error table knows every code Slack documents', () => {
  it.each(TABLE_METHODS)(
    '%s: each documented code has a class, none falls to "other"',
    (method) => {
      const facts = factsOf(method);
      const codes = [...new Set([...facts.errors, ...facts.exampleErrors])];
      const unclassed = codes.filter((code) => serviceError(code).class === 'other');
      expect(unclassed).toEqual([]);
      for (const code of codes) {
        expect([
          'credential',
          'target',
          'content',
          'transient',
          'unknown-outcome',
          'retired',
        ]).toContain(serviceError(code).class);
      }
    },
  );

  it('reads fatal_error and internal_error as "outcome unknown" and posting_to_channel_denied as a target refusal', () => {
    expect(serviceError('fatal_error').class).toBe('unknown-outcome');
    expect(serviceError('internal_error').class).toBe('unknown-outcome');
    expect(serviceError('posting_to_channel_denied').class).toBe('target');
  });
});

// ---- the client's readers, given generated answers ----

type Script = Record<string, (body: string) => TransportResponse>;

/** Answers by method name (`upload` for the bytes); each body is read first, as a server would. */
function scripted(script: Script): Transport & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    async request(req: TransportRequest) {
      const chunks: Buffer[] = [];
      for await (const chunk of req.body ?? []) {
        chunks.push(Buffer.from(chunk));
        req.onBodyWritten?.(chunk.length, chunk);
      }
      const path = new URL(req.url).pathname;
      const method = path.startsWith('/api/') ? path.slice('/api/'.length) : 'upload';
      seen.push(method);
      const answer = script[method];
      if (!answer) throw new Error(`no scripted answer for ${method}`);
      return answer(Buffer.concat(chunks).toString('utf8'));
    },
  };
}

const ok = (value: unknown): TransportResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});

/** Each success example of `method`, generated. */
function successes(method: string, given: Record<string, unknown> = {}) {
  return factsOf(method)
    .examples.filter((e) => e.ok !== undefined && e.error === undefined)
    .map((paths) => generatedAnswer(paths, { ok: true, ...given }));
}

let dir: string;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-conformance-'));
  file = join(dir, 'plan.txt');
  await writeFile(file, 'the plan\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const job = (channels = ['C1']) => ({
  baseUrl: BASE,
  token: 'xoxb-generated',
  channels,
  file: { path: file, name: 'plan.txt' },
});

describe("the client's readers accept answers generated from Slack's examples", () => {
  it('the external protocol: files.getUploadURLExternal, files.completeUploadExternal and files.info', async () => {
    const given = { file_id: 'F1', upload_url: `${BASE}/_upload/F1` };
    for (const step1 of successes('files.getUploadURLExternal', given)) {
      for (const step3 of successes('files.completeUploadExternal', { 'files[].id': 'F1' })) {
        for (const info of successes('files.info', { 'file.id': 'F1', '*': 'C1' })) {
          const transport = scripted({
            'files.getUploadURLExternal': () => ok(step1),
            upload: () => ({ status: 200, headers: {}, body: 'OK - 9' }),
            'files.completeUploadExternal': () => ok(step3),
            'files.info': () => ok(info),
          });
          const result = await uploadExternal(job(), { transport, sleep: async () => {} });
          expect(result).toMatchObject({
            kind: 'delivered',
            file: {
              id: 'F1',
              permalink: 'generated file.permalink',
              ts: 'generated file.shares.public.*[].ts',
            },
          });
        }
      }
    }
  });

  it('files.upload', async () => {
    const answers = successes('files.upload', { 'file.id': 'F1' });
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) {
      const transport = scripted({ 'files.upload': () => ok(answer) });
      expect(await uploadOnce(job(), { transport })).toMatchObject({
        kind: 'delivered',
        file: { id: 'F1', permalink: 'generated file.permalink' },
      });
    }
  });

  it('auth.test', async () => {
    for (const answer of successes('auth.test')) {
      const transport = scripted({ 'auth.test': () => ok(answer) });
      expect(await authTest(BASE, 'xoxb-generated', transport)).toEqual({
        ok: true,
        user: 'generated user',
        team: 'generated team',
      });
    }
  });

  it('conversations.list and users.list', async () => {
    const channels = successes('conversations.list', {
      'channels[].id': 'C1',
      'channels[].is_archived': false,
      'response_metadata.next_cursor': '',
    });
    const members = successes('users.list', {
      'members[].id': 'U1',
      'members[].deleted': false,
      'response_metadata.next_cursor': '',
    });
    for (const answer of channels) {
      const listed = await listConversations(
        BASE,
        'xoxb-generated',
        scripted({ 'conversations.list': () => ok(answer) }),
      );
      expect(listed).toMatchObject({
        ok: true,
        conversations: [expect.objectContaining({ id: 'C1' })],
      });
    }
    for (const answer of members) {
      const listed = await listUsers(
        BASE,
        'xoxb-generated',
        scripted({ 'users.list': () => ok(answer) }),
      );
      expect(listed).toMatchObject({ ok: true, people: [expect.objectContaining({ id: 'U1' })] });
    }
  });

  it('oauth.v2.access (the PKCE exchange): the user token from authed_user first, then the top level', async () => {
    const args = { clientId: 'A', code: 'c', verifier: 'v', redirectUri: 'http://127.0.0.1:1/' };
    let read = 0;
    for (const example of factsOf('oauth.v2.access').examples) {
      // Only answers of a rotating-token app carry the refresh token a PKCE sign-in needs.
      if (!example['authed_user.refresh_token'] && !example.refresh_token) continue;
      const answer = generatedAnswer(example, { ok: true });
      const transport = scripted({
        'oauth.v2.access': () => ok(answer),
        'oauth.v2.user.access': () => ok(answer),
      });
      const got = await exchangeCode(BASE, args, transport);
      const user = answer.authed_user as Record<string, unknown> | undefined;
      expect(got).toMatchObject({
        ok: true,
        tokens: { accessToken: user?.access_token ?? answer.access_token },
      });
      read++;
    }
    expect(read).toBeGreaterThan(0);
  });
});
