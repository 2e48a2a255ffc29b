// GET or POST /api/conversations.list, as Slack answers it: the conversations a token can see,
// a page at a time (`limit`, `cursor`), filtered by `types` and `exclude_archived`, channels with
// `is_member` from the token's channels (DMs without it, as on Slack). Private conversations are listed only to members, as
// on Slack. Scopes are checked per requested type; the method has its own rate limit.
import { readArgs, stringArg } from './api-args';
import { authenticate, finish, rateLimited, startFault } from './api-common';
import type { Conversation, TokenGrant } from './config';
import type { ServiceContext } from './context';
import { type Answer, type Exchange, jsonAnswer, slackError } from './exchange';

const TYPES = ['public_channel', 'private_channel', 'mpim', 'im'] as const;
type ConversationType = (typeof TYPES)[number];

const SCOPE_FOR: Record<ConversationType, string> = {
  public_channel: 'channels:read',
  private_channel: 'groups:read',
  mpim: 'mpim:read',
  im: 'im:read',
};

const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 100;

function typeOf(c: Conversation): ConversationType {
  if (c.kind === 'im') return 'im';
  if (c.kind === 'mpim') return 'mpim';
  return c.private ? 'private_channel' : 'public_channel';
}

/** Slack's cursors are opaque base64; this one names the first ID of the next page. */
function encodeCursor(id: string): string {
  return Buffer.from(`next:${id}`).toString('base64');
}

function decodeCursor(cursor: string): string | undefined {
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  return text.startsWith('next:') ? text.slice('next:'.length) : undefined;
}

function describe(c: Conversation, grant: TokenGrant, created: number) {
  const isMember = grant.channels.includes(c.id);
  if (c.kind === 'im') {
    // A DM entry carries no is_member on Slack: the example answer on
    // https://docs.slack.dev/reference/methods/conversations.list lists a DM as id, created,
    // is_im, is_org_shared, user, is_user_deleted, priority (also node-slack-sdk PR #1397).
    return {
      id: c.id,
      created,
      is_im: true,
      is_org_shared: false,
      user: c.user ?? grant.user,
      is_user_deleted: false,
      priority: 0,
      is_archived: c.archived,
    };
  }
  return {
    id: c.id,
    name: c.name,
    name_normalized: c.name,
    created,
    is_channel: c.kind === 'channel',
    is_group: c.kind === 'channel' && c.private,
    is_im: false,
    is_mpim: c.kind === 'mpim',
    is_private: c.private,
    is_archived: c.archived,
    is_general: c.name === 'general',
    ...(c.omitIsMember ? {} : { is_member: isMember }),
  };
}

export async function conversationsList(
  ctx: ServiceContext,
  ex: Exchange,
  query: URLSearchParams,
): Promise<void> {
  const fault = await startFault(ctx, ex, 'conversations.list');
  if (fault === 'handled') return;
  const done = (answer: Answer, bodyRead: boolean) => finish(ctx, ex, fault, answer, bodyRead);

  const auth = authenticate(ex.req.headers, ctx.config, ctx.oauth, ctx.revokedTokens);
  if (!auth.ok) return done(auth.answer, false);
  const rate = ctx.listLimiter.take(auth.token);
  if (!rate.allowed) return done(rateLimited(rate.retryAfterSeconds), false);

  const parsed = await readArgs(ex);
  if (parsed.kind === 'aborted') return;
  if (parsed.kind === 'invalid') return done(slackError(parsed.code), parsed.bodyRead);
  // Slack reads arguments from the query string of a GET as well as from the body.
  const arg = (name: string): string | undefined =>
    stringArg(parsed.args, name) ?? query.get(name) ?? undefined;

  const typesText = arg('types') || 'public_channel';
  const types = [...new Set(typesText.split(',').map((t) => t.trim()))];
  if (types.some((t) => !(TYPES as readonly string[]).includes(t))) {
    return done(slackError('invalid_types'), true);
  }
  const wanted = types as ConversationType[];

  const { grant } = auth;
  if (grant.scopes) {
    // One type without its scope refuses the whole call, naming that type's scope alone:
    // `{"ok":false,"error":"missing_scope","needed":"im:read","provided":"…channels:read,
    // groups:read…"}` as observed in getsentry/sentry PR #18317 and invergent-ai/surogates
    // PR #106 (`needed: mpim:read` for all four types). Which scope Slack names when several
    // are missing is not documented: this service names the first, in the order asked.
    const needed = wanted.map((t) => SCOPE_FOR[t]).find((s) => !grant.scopes?.includes(s));
    if (needed !== undefined) {
      const answer = jsonAnswer(
        {
          ok: false,
          error: 'missing_scope',
          needed,
          provided: grant.scopes.join(','),
        },
        200,
        { 'x-slack-failure': 'missing_scope' },
      );
      return done(answer, true);
    }
  }

  const limitText = arg('limit');
  let limit = DEFAULT_LIMIT;
  if (limitText !== undefined && limitText !== '') {
    if (!/^\d+$/.test(limitText)) return done(slackError('invalid_limit'), true);
    // Slack clamps a limit above the maximum rather than refusing it; 0 means the default.
    limit = Math.min(MAX_LIMIT, Number(limitText)) || DEFAULT_LIMIT;
  }
  const excludeArchived = ['true', '1'].includes((arg('exclude_archived') ?? '').toLowerCase());

  const visible = ctx.conversations.filter((c) => {
    if (!wanted.includes(typeOf(c))) return false;
    if (excludeArchived && c.archived) return false;
    // Private conversations and DMs are invisible to non-members.
    return !c.private || grant.channels.includes(c.id);
  });

  let start = 0;
  const cursor = arg('cursor');
  if (cursor) {
    const id = decodeCursor(cursor);
    start = id === undefined ? -1 : visible.findIndex((c) => c.id === id);
    if (start < 0) return done(slackError('invalid_cursor'), true);
  }
  const page = visible.slice(start, start + limit);
  const next = visible[start + limit];
  const created = Math.floor(ctx.now() / 1000);
  return done(
    jsonAnswer({
      ok: true,
      channels: page.map((c) => describe(c, grant, created)),
      response_metadata: { next_cursor: next ? encodeCursor(next.id) : '' },
    }),
    true,
  );
}
