// Fetches the workspace's people through Slack's users.list (scope users:read), all pages, so
// `@name` can be resolved and a DM or a user ID shown by the person's name. Deleted members are
// left out: Slack lists them, but nothing can be shared with them. Without the scope, user IDs
// still work; the caller says once that names of people need users:read.
import type { Person } from '../../portable/people-names';
import type { Transport } from '../upload/transport';
import type { ListProblemCode } from './conversations-list';
import { fetchAllPages } from './slack-pages';

export type { Person } from '../../portable/people-names';

export type PeopleResult =
  | { ok: true; people: Person[] }
  | { ok: false; code: ListProblemCode; message: string; retryAfterMs?: number };

const NO_PEOPLE_SCOPE_MESSAGE =
  'Names of people need the users:read scope: add it to the app, or use their user IDs (such as U0123ABCD). User IDs still work.';

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
  const pages = await fetchAllPages({
    baseUrl,
    token,
    transport,
    method: 'users.list',
    itemsKey: 'members',
    ...(opts.pageSize !== undefined ? { pageSize: opts.pageSize } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    waiting: { budgetMs: opts.maxWaitMs ?? 0, waitedMs: 0 },
  });
  if (pages.ok) {
    const people: Person[] = [];
    for (const raw of pages.items as RawMember[]) {
      const person = raw && typeof raw === 'object' ? personOf(raw) : undefined;
      if (person) people.push(person);
    }
    return { ok: true, people };
  }
  const { problem } = pages;
  switch (problem.kind) {
    case 'transport':
      return {
        ok: false,
        code: 'other',
        message: `Could not fetch the people: ${problem.message}`,
      };
    case 'ratelimited':
      return {
        ok: false,
        code: 'ratelimited',
        message:
          'The service is limiting how often its people can be fetched; names of people will be looked up again later. User IDs still work.',
        ...(problem.retryAfterMs !== undefined ? { retryAfterMs: problem.retryAfterMs } : {}),
      };
    case 'unknown_method':
      return {
        ok: false,
        code: 'unknown_method',
        message:
          'This service cannot list its people (no users.list): use user IDs such as U0123ABCD.',
      };
    case 'missing_scope':
      return { ok: false, code: 'missing_scope', message: NO_PEOPLE_SCOPE_MESSAGE };
    case 'other':
      return {
        ok: false,
        code: 'other',
        message: `Could not fetch the people (${problem.what}).`,
      };
  }
}
