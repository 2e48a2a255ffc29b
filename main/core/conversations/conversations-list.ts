// Fetches every conversation a token can see through Slack's conversations.list: public and
// private channels, group DMs and DMs, archived ones left out, all pages. A service without the
// method, a token without the scope, or a rate limit is an answer too: the caller keeps typed
// IDs working and tells the person once.
import { apiUrl } from '../upload/credentials';
import { type Transport, TransportError } from '../upload/transport';

export type ConversationKind = 'public' | 'private' | 'dm' | 'group-dm';

export interface Conversation {
  id: string;
  /** Channel name without '#'; for a DM, the other person's user ID. */
  name: string;
  kind: ConversationKind;
  isMember: boolean;
  /** For a DM: the other person's user ID (Slack's `user`), to show them by name. */
  user?: string;
}

export type ListProblemCode = 'unknown_method' | 'missing_scope' | 'ratelimited' | 'other';

export type ListResult =
  | { ok: true; conversations: Conversation[] }
  | { ok: false; code: ListProblemCode; message: string; retryAfterMs?: number };

const TYPES = 'public_channel,private_channel,mpim,im';
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
  // DMs the token can see are its own; Slack leaves out is_member on some of them.
  const isMember = raw.is_member === true || (kind === 'dm' && raw.is_member !== false);
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
}

export async function listConversations(
  baseUrl: string,
  token: string,
  transport: Transport,
  opts: ListOptions = {},
): Promise<ListResult> {
  const conversations: Conversation[] = [];
  let cursor = '';
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const form = new URLSearchParams({
      types: TYPES,
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
      return {
        ok: false,
        code: 'ratelimited',
        message:
          'The service is limiting how often the channel list can be fetched; names will be looked up again later. Channel IDs still work.',
        ...(Number.isFinite(seconds) ? { retryAfterMs: seconds * 1000 } : {}),
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
      const needed = typeof json.needed === 'string' ? json.needed : 'channels:read';
      return {
        ok: false,
        code: 'missing_scope',
        message: `The token may not list channels (it lacks the ${needed} scope): add the scope to the app, or enter channel IDs such as C0123ABCD.`,
      };
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
