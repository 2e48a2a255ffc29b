// Fetches every conversation a token can see through Slack's conversations.list: public and
// private channels, group DMs and DMs, archived ones left out, all pages. Slack refuses the whole
// call when one asked type lacks its scope, naming that scope in `needed`; the type is then left
// out and the rest asked again, so a token without im:read still lists its channels. A service
// without the method, or a rate limit past the caller's bound, is an answer too: the caller keeps
// typed IDs working and tells the person once.
import {
  CONVERSATION_TYPES,
  type Conversation,
  type ConversationKind,
  type ConversationType,
  type UnlistedKind,
  unlistedOf,
  whyUnlisted,
} from '../../portable/conversation-types';
import type { Transport } from '../upload/transport';
import { fetchAllPages, type WaitBudget } from './slack-pages';

export type { Conversation } from '../../portable/conversation-types';

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
  waiting: WaitBudget,
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
  waiting: WaitBudget,
): Promise<Pass> {
  const pages = await fetchAllPages({
    baseUrl,
    token,
    transport,
    method: 'conversations.list',
    args: { types: types.map((t) => t.type).join(','), exclude_archived: 'true' },
    itemsKey: 'channels',
    ...(opts.pageSize !== undefined ? { pageSize: opts.pageSize } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    waiting,
  });
  if (pages.ok) {
    const conversations: Conversation[] = [];
    for (const raw of pages.items as RawConversation[]) {
      const conversation = raw && typeof raw === 'object' ? conversationOf(raw) : undefined;
      if (conversation) conversations.push(conversation);
    }
    return { ok: true, conversations };
  }
  const { problem } = pages;
  switch (problem.kind) {
    case 'transport':
      return {
        ok: false,
        code: 'other',
        message: `Could not fetch the channel list: ${problem.message}`,
      };
    case 'ratelimited':
      return {
        ok: false,
        code: 'ratelimited',
        message:
          'The service is limiting how often the channel list can be fetched; names will be looked up again later. Channel IDs still work.',
        ...(problem.retryAfterMs !== undefined ? { retryAfterMs: problem.retryAfterMs } : {}),
      };
    case 'unknown_method':
      return {
        ok: false,
        code: 'unknown_method',
        message:
          'This service cannot list channels (no conversations.list): enter channel IDs such as C0123ABCD.',
      };
    case 'missing_scope':
      return { ok: false, code: 'missing_scope', needed: problem.needed };
    case 'other':
      return {
        ok: false,
        code: 'other',
        message: `Could not fetch the channel list (${problem.what}).`,
      };
  }
}
