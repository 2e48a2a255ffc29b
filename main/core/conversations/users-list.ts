// Fetches the workspace's people through Slack's users.list (scope users:read), all pages, so
// `@name` can be resolved and a DM or a user ID shown by the person's name. Deleted members are
// left out: Slack lists them, but nothing can be shared with them. Without the scope, user IDs
// still work; the caller says once that names of people need users:read.
import { setTimeout as delay } from 'node:timers/promises';
import { apiUrl } from '../../portable/credentials';
import type { Person } from '../../portable/people-names';
import { type Transport, TransportError } from '../upload/transport';
import type { ListProblemCode } from './conversations-list';

export type { Person } from '../../portable/people-names';

export type PeopleResult =
  | { ok: true; people: Person[] }
  | { ok: false; code: ListProblemCode; message: string; retryAfterMs?: number };

const NO_PEOPLE_SCOPE_MESSAGE =
  'Names of people need the users:read scope: add it to the app, or use their user IDs (such as U0123ABCD). User IDs still work.';

const CONNECT_TIMEOUT_MS = 15_000;
const IDLE_TIMEOUT_MS = 30_000;
const MAX_PAGES = 200;

interface RawMember {
  id?: unknown;
  name?: unknown;
  real_name?: unknown;
  deleted?: unknown;
  profile?: { display_name?: unknown; real_name?: unknown } | null;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

function personOf(raw: RawMember): Person | undefined {
  if (typeof raw.id !== 'string' || raw.id === '' || raw.deleted === true) return undefined;
  return {
    id: raw.id,
    handle: text(raw.name) || raw.id,
    displayName: text(raw.profile?.display_name),
    realName: text(raw.profile?.real_name) || text(raw.real_name),
  };
}

function parse(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export async function listUsers(
  baseUrl: string,
  token: string,
  transport: Transport,
  opts: {
    pageSize?: number;
    signal?: AbortSignal;
    /** How long a rate limit's Retry-After may be waited out (send's --max-wait); 0: not. */
    maxWaitMs?: number;
  } = {},
): Promise<PeopleResult> {
  const people: Person[] = [];
  let cursor = '';
  let waitedMs = 0;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    // Slack's docs recommend pages of at most 200.
    const form = new URLSearchParams({ limit: String(opts.pageSize ?? 200) });
    if (cursor) form.set('cursor', cursor);
    const body = Buffer.from(form.toString());
    let res: Awaited<ReturnType<Transport['request']>>;
    try {
      res = await transport.request({
        url: apiUrl(baseUrl, 'users.list'),
        method: 'POST',
        headers: {
          authorization: `Bearer ${token.trim()}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          'accept-encoding': 'identity',
        },
        body: (async function* () {
          yield body;
        })(),
        contentLength: body.length,
        ...(opts.signal ? { signal: opts.signal } : {}),
        connectTimeoutMs: CONNECT_TIMEOUT_MS,
        idleTimeoutMs: IDLE_TIMEOUT_MS,
      });
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      return { ok: false, code: 'other', message: `Could not fetch the people: ${error.message}` };
    }
    const json = parse(res.body);
    if (res.status === 429 || json?.error === 'ratelimited') {
      const seconds = Number(res.headers['retry-after']);
      // As for the channel list: within the caller's bound the same page is asked again, and a
      // Retry-After of 0 still waits a second, so the bound always ends the asking.
      const waitMs = Math.max(1000, Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 0);
      if (Number.isFinite(seconds) && waitMs <= (opts.maxWaitMs ?? 0) - waitedMs) {
        await delay(waitMs, undefined, opts.signal ? { signal: opts.signal } : undefined);
        waitedMs += waitMs;
        page -= 1;
        continue;
      }
      return {
        ok: false,
        code: 'ratelimited',
        message:
          'The service is limiting how often its people can be fetched; names of people will be looked up again later. User IDs still work.',
        ...(Number.isFinite(seconds) ? { retryAfterMs: seconds * 1000 } : {}),
      };
    }
    if (res.status === 404 || json?.error === 'unknown_method') {
      return {
        ok: false,
        code: 'unknown_method',
        message:
          'This service cannot list its people (no users.list): use user IDs such as U0123ABCD.',
      };
    }
    if (json?.error === 'missing_scope') {
      return { ok: false, code: 'missing_scope', message: NO_PEOPLE_SCOPE_MESSAGE };
    }
    if (json?.ok !== true || !Array.isArray(json.members)) {
      const what = typeof json?.error === 'string' ? json.error : `HTTP ${res.status}`;
      return { ok: false, code: 'other', message: `Could not fetch the people (${what}).` };
    }
    for (const raw of json.members as RawMember[]) {
      const person = raw && typeof raw === 'object' ? personOf(raw) : undefined;
      if (person) people.push(person);
    }
    const meta = json.response_metadata as { next_cursor?: unknown } | undefined;
    // python-slack-sdk's own pagination fixture gives a number here: taken as text.
    const next = meta?.next_cursor;
    cursor = typeof next === 'string' || typeof next === 'number' ? String(next) : '';
    if (cursor === '') return { ok: true, people };
  }
  return { ok: true, people };
}
