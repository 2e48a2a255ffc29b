// Fetches every conversation a token can see through Slack's conversations.list: public and
// private channels, group DMs and DMs, archived ones left out, all pages. Slack refuses the whole
// call when one asked type lacks its scope, naming that scope in `needed`; the type is then left
// out and the rest asked again, so a token without im:read still lists its channels. A service
// without the method, or a rate limit past the caller's bound, is an answer too: the caller keeps
// typed IDs working and tells the person once.
import { setTimeout as delay } from 'node:timers/promises';
import {
  CONVERSATION_TYPES,
  type Conversation,
  type ConversationKind,
  type ConversationType,
  type UnlistedKind,
  unlistedOf,
  whyUnlisted,
} from '../../portable/conversation-types';
import { apiUrl } from '../../portable/credentials';
import { type Transport, TransportError } from '../upload/transport';

export type {
  Conversation,
  ConversationKind,
} from '../../portable/conversation-types';

export type ListProblemCode = 'unknown_method' | 'missing_scope' | 'ratelimited' | 'other';

export type ListResult =
  | {
      ok: true;
      conversations: Conversation[];
      /** Kinds the token may not list (their scope missing): their names are not known. */
      unlisted: UnlistedKind[];
      /** Time spent waiting for the service's Retry-After before it answered. */
      waitedMs: number;
    }
  | { ok: false; code: ListProblemCode; message: string; retryAfterMs?: number };

const CONNECT_TIMEOUT_MS = 15_000;
const IDLE_TIMEOUT_MS = 30_000;
/** A bound on pages, so a service that never ends its cursor cannot keep us forever. */
const MAX_PAGES = 200;

interface RawConversation {
  id?: unknown;
  name?: unknown;
  user?: unknown;
  is_im?: unknown;
  is_mpim?: unknown;
  is_private?: unknown;
  is_archived?: unknown;
  is_member?: unknown;
}

function conversationOf(raw: RawConversation): Conversation | undefined {
  if (typeof raw.id !== 'string' || raw.id === '' || raw.is_archived === true) return undefined;
  const kind: ConversationKind =
    raw.is_im === true
      ? 'dm'
      : raw.is_mpim === true
        ? 'group-dm'
        : raw.is_private === true
          ? 'private'
          : 'public';
  const name =
    typeof raw.name === 'string' && raw.name !== ''
      ? raw.name
      : typeof raw.user === 'string'
        ? raw.user
        : raw.id;
  // Slack's DM entries carry no is_member, and the DMs a token can see are its own.
  const isMember = typeof raw.is_member === 'boolean' ? raw.is_member : kind === 'dm' ? true : null;
  const user = kind === 'dm' && typeof raw.user === 'string' ? { user: raw.user } : {};
  return { id: raw.id, name, kind, isMember, ...user };
}

function parse(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export interface ListOptions {
  /** Page size asked for (Slack allows up to 1000; smaller pages answer faster). */
  pageSize?: number;
  signal?: AbortSignal;
  /**
   * The most to wait, in all, for the service's Retry-After before asking again; 0 (the
   * default) answers 'ratelimited' at once, for callers that keep a list and ask later.
   */
  maxWaitMs?: number;
}

/** One pass over the pages of some types: their conversations, or why not. */
type Pass =
  | { ok: true; conversations: Conversation[] }
  | { ok: false; code: 'missing_scope'; needed: string[] }
  | {
      ok: false;
      code: Exclude<ListProblemCode, 'missing_scope'>;
      message: string;
      retryAfterMs?: number;
    };

export async function listConversations(
  baseUrl: string,
  token: string,
  transport: Transport,
  opts: ListOptions = {},
): Promise<ListResult> {
  const waiting = { budgetMs: opts.maxWaitMs ?? 0, waitedMs: 0 };
  const unlisted: UnlistedKind[] = [];
  let asked = [...CONVERSATION_TYPES];
  // Each refusal leaves out at least one type, so this ends within one pass per type.
  while (asked.length > 0) {
    const pass = await listPass(baseUrl, token, transport, asked, opts, waiting);
    if (pass.ok) {
      return { ok: true, conversations: pass.conversations, unlisted, waitedMs: waiting.waitedMs };
    }
    if (pass.code !== 'missing_scope') return pass;
    let refused = asked.filter((t) => pass.needed.includes(t.scope));
    // A `needed` that names none of the asked types says nothing about which one is refused:
    // asking each alone finds out.
    if (refused.length === 0 && asked.length > 1) {
      return listEachAlone(baseUrl, token, transport, asked, unlisted, opts, waiting);
    }
    if (refused.length === 0) refused = asked;
    unlisted.push(...refused.map(unlistedOf));
    asked = asked.filter((t) => !refused.includes(t));
  }
  return everyKindRefused(unlisted);
}

async function listEachAlone(
  baseUrl: string,
  token: string,
  transport: Transport,
  types: readonly ConversationType[],
  unlisted: UnlistedKind[],
  opts: ListOptions,
  waiting: { budgetMs: number; waitedMs: number },
): Promise<ListResult> {
  const conversations: Conversation[] = [];
  for (const type of types) {
    const pass = await listPass(baseUrl, token, transport, [type], opts, waiting);
    if (pass.ok) conversations.push(...pass.conversations);
    else if (pass.code === 'missing_scope') unlisted.push(unlistedOf(type));
    else return pass;
  }
  if (unlisted.length === CONVERSATION_TYPES.length) return everyKindRefused(unlisted);
  return { ok: true, conversations, unlisted, waitedMs: waiting.waitedMs };
}

function everyKindRefused(unlisted: readonly UnlistedKind[]): ListResult {
  return {
    ok: false,
    code: 'missing_scope',
    message: `The token may not list channels (${whyUnlisted(unlisted)}): add a scope to the app, or enter channel IDs such as C0123ABCD.`,
  };
}

async function listPass(
  baseUrl: string,
  token: string,
  transport: Transport,
  types: readonly ConversationType[],
  opts: ListOptions,
  waiting: { budgetMs: number; waitedMs: number },
): Promise<Pass> {
  const conversations: Conversation[] = [];
  let cursor = '';
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const form = new URLSearchParams({
      types: types.map((t) => t.type).join(','),
      exclude_archived: 'true',
      limit: String(opts.pageSize ?? 200),
    });
    if (cursor) form.set('cursor', cursor);
    const body = Buffer.from(form.toString());
    let res: Awaited<ReturnType<Transport['request']>>;
    try {
      res = await transport.request({
        url: apiUrl(baseUrl, 'conversations.list'),
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
      return {
        ok: false,
        code: 'other',
        message: `Could not fetch the channel list: ${error.message}`,
      };
    }
    const json = parse(res.body);
    if (res.status === 429 || json?.error === 'ratelimited') {
      const seconds = Number(res.headers['retry-after']);
      const retryAfterMs = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
      // Within the caller's bound, the same page is asked again once the service allows it.
      // A Retry-After of 0 still waits a second, so the bound always ends the asking.
      const waitMs = Math.max(1000, retryAfterMs ?? 0);
      if (retryAfterMs !== undefined && waitMs <= waiting.budgetMs - waiting.waitedMs) {
        await delay(waitMs, undefined, opts.signal ? { signal: opts.signal } : undefined);
        waiting.waitedMs += waitMs;
        page -= 1;
        continue;
      }
      return {
        ok: false,
        code: 'ratelimited',
        message:
          'The service is limiting how often the channel list can be fetched; names will be looked up again later. Channel IDs still work.',
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    }
    if (res.status === 404 || json?.error === 'unknown_method') {
      return {
        ok: false,
        code: 'unknown_method',
        message:
          'This service cannot list channels (no conversations.list): enter channel IDs such as C0123ABCD.',
      };
    }
    if (json?.error === 'missing_scope') {
      const needed = typeof json.needed === 'string' ? json.needed.split(',') : [];
      return { ok: false, code: 'missing_scope', needed: needed.map((n) => n.trim()) };
    }
    if (json?.ok !== true || !Array.isArray(json.channels)) {
      const what = typeof json?.error === 'string' ? json.error : `HTTP ${res.status}`;
      return { ok: false, code: 'other', message: `Could not fetch the channel list (${what}).` };
    }
    for (const raw of json.channels as RawConversation[]) {
      const conversation = raw && typeof raw === 'object' ? conversationOf(raw) : undefined;
      if (conversation) conversations.push(conversation);
    }
    const meta = json.response_metadata as { next_cursor?: unknown } | undefined;
    cursor = typeof meta?.next_cursor === 'string' ? meta.next_cursor : '';
    if (cursor === '') return { ok: true, conversations };
  }
  return { ok: true, conversations };
}
