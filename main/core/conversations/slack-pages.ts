// Every page of one of Slack's cursor-paged list methods (conversations.list, users.list): the
// request, the rate limit waited out within the caller's bound, and the answers that end the
// asking. The callers say in their own words what a problem means for their list.
import { setTimeout as delay } from 'node:timers/promises';
import { apiUrl } from '../../portable/credentials';
import { type Transport, TransportError } from '../upload/transport';

const CONNECT_TIMEOUT_MS = 15_000;
const IDLE_TIMEOUT_MS = 30_000;
/** A bound on pages, so a service that never ends its cursor cannot keep us forever. */
const MAX_PAGES = 200;

/** How long the service's Retry-After may still be waited out, shared by a caller's passes. */
export interface WaitBudget {
  budgetMs: number;
  waitedMs: number;
}

export type PageProblem =
  | { kind: 'transport'; message: string }
  | { kind: 'ratelimited'; retryAfterMs?: number }
  | { kind: 'unknown_method' }
  | { kind: 'missing_scope'; needed: string[] }
  /** Any other refusal or a body that is no answer: the code, or the HTTP status. */
  | { kind: 'other'; what: string };

export interface PagesRequest {
  baseUrl: string;
  token: string;
  transport: Transport;
  method: 'conversations.list' | 'users.list';
  /** The method's arguments besides limit and cursor. */
  args?: Record<string, string>;
  /** The answer's field that holds the page's entries (`channels`, `members`). */
  itemsKey: string;
  pageSize?: number;
  signal?: AbortSignal;
  waiting: WaitBudget;
}

function parse(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export async function fetchAllPages(
  req: PagesRequest,
): Promise<{ ok: true; items: unknown[] } | { ok: false; problem: PageProblem }> {
  const items: unknown[] = [];
  let cursor = '';
  for (let page = 0; page < MAX_PAGES; page += 1) {
    // Slack's docs recommend pages of at most 200.
    const form = new URLSearchParams({ ...req.args, limit: String(req.pageSize ?? 200) });
    if (cursor) form.set('cursor', cursor);
    const body = Buffer.from(form.toString());
    let res: Awaited<ReturnType<Transport['request']>>;
    try {
      res = await req.transport.request({
        url: apiUrl(req.baseUrl, req.method),
        method: 'POST',
        headers: {
          authorization: `Bearer ${req.token.trim()}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          'accept-encoding': 'identity',
        },
        body: (async function* () {
          yield body;
        })(),
        contentLength: body.length,
        ...(req.signal ? { signal: req.signal } : {}),
        connectTimeoutMs: CONNECT_TIMEOUT_MS,
        idleTimeoutMs: IDLE_TIMEOUT_MS,
      });
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      return { ok: false, problem: { kind: 'transport', message: error.message } };
    }
    const json = parse(res.body);
    if (res.status === 429 || json?.error === 'ratelimited') {
      const seconds = Number(res.headers['retry-after']);
      const retryAfterMs = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
      // Within the caller's bound, the same page is asked again once the service allows it.
      // A Retry-After of 0 still waits a second, so the bound always ends the asking.
      const waitMs = Math.max(1000, retryAfterMs ?? 0);
      const { waiting } = req;
      if (retryAfterMs !== undefined && waitMs <= waiting.budgetMs - waiting.waitedMs) {
        await delay(waitMs, undefined, req.signal ? { signal: req.signal } : undefined);
        waiting.waitedMs += waitMs;
        page -= 1;
        continue;
      }
      return {
        ok: false,
        problem: { kind: 'ratelimited', ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) },
      };
    }
    if (res.status === 404 || json?.error === 'unknown_method') {
      return { ok: false, problem: { kind: 'unknown_method' } };
    }
    if (json?.error === 'missing_scope') {
      const needed = typeof json.needed === 'string' ? json.needed.split(',') : [];
      return { ok: false, problem: { kind: 'missing_scope', needed: needed.map((n) => n.trim()) } };
    }
    const pageItems = json?.[req.itemsKey];
    if (json?.ok !== true || !Array.isArray(pageItems)) {
      const what = typeof json?.error === 'string' ? json.error : `HTTP ${res.status}`;
      return { ok: false, problem: { kind: 'other', what } };
    }
    items.push(...pageItems);
    const meta = json.response_metadata as { next_cursor?: unknown } | undefined;
    // python-slack-sdk's own users.list pagination fixture gives a number here: taken as text.
    const next = meta?.next_cursor;
    cursor = typeof next === 'string' || typeof next === 'number' ? String(next) : '';
    if (cursor === '') break;
  }
  return { ok: true, items };
}
