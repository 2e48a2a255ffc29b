// GET or POST /api/users.list, as Slack answers it: every member of the workspace, deleted ones
// and bots included, a page at a time. Shapes follow Slack's docs
// (https://docs.slack.dev/reference/methods/users.list: scope users:read, `limit` and `cursor`,
// "no limit value" = the whole set, deleted users listed) and the Member type of node-slack-sdk
// (packages/web-api/src/types/response/UsersListResponse.ts); the envelope is that of
// python-slack-sdk's tests/slack_sdk_fixture/web_response_users_list_pagination*.json
// (`members`, `response_metadata.next_cursor`, "" on the last page).
import { readArgs, stringArg } from './api-args';
import { authenticate, finish, rateLimited, startFault } from './api-common';
import type { UserSpec } from './config';
import type { ServiceContext } from './context';
import { type Answer, type Exchange, jsonAnswer, slackError } from './exchange';
import { TEAM } from './file-object';

const SCOPE = 'users:read';
/** Slack's pagination guide: limits above 1000 are not honoured. */
const MAX_LIMIT = 1000;

/** Slack's example cursor "dXNlcjpVMDYxTkZUVDI=" is base64 of "user:U061NFTT2": the same here. */
function encodeCursor(id: string): string {
  return Buffer.from(`user:${id}`).toString('base64');
}

function decodeCursor(cursor: string): string | undefined {
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  return text.startsWith('user:') ? text.slice('user:'.length) : undefined;
}

function describe(u: UserSpec, updated: number) {
  const realName = u.realName ?? '';
  const displayName = u.displayName ?? '';
  return {
    id: u.id,
    team_id: TEAM.id,
    name: u.name,
    deleted: u.deleted ?? false,
    // Slack leaves real_name out of a deleted member; the profile keeps it.
    ...(u.deleted ? {} : { real_name: realName }),
    is_bot: u.bot ?? false,
    is_app_user: false,
    updated,
    profile: {
      real_name: realName,
      real_name_normalized: realName,
      display_name: displayName,
      display_name_normalized: displayName,
      team: TEAM.id,
    },
  };
}

export async function usersList(
  ctx: ServiceContext,
  ex: Exchange,
  query: URLSearchParams,
): Promise<void> {
  const fault = await startFault(ctx, ex, 'users.list');
  if (fault === 'handled') return;
  const done = (answer: Answer, bodyRead: boolean) => finish(ctx, ex, fault, answer, bodyRead);

  const auth = authenticate(ex.req.headers, ctx.config, ctx.oauth, ctx.revokedTokens);
  if (!auth.ok) return done(auth.answer, false);
  const rate = ctx.usersLimiter.take(auth.token);
  if (!rate.allowed) return done(rateLimited(rate.retryAfterSeconds), false);

  const parsed = await readArgs(ex);
  if (parsed.kind === 'aborted') return;
  if (parsed.kind === 'invalid') return done(slackError(parsed.code), parsed.bodyRead);
  const arg = (name: string): string | undefined =>
    stringArg(parsed.args, name) ?? query.get(name) ?? undefined;

  const { grant } = auth;
  if (grant.scopes && !grant.scopes.includes(SCOPE)) {
    return done(
      jsonAnswer(
        { ok: false, error: 'missing_scope', needed: SCOPE, provided: grant.scopes.join(',') },
        200,
        { 'x-slack-failure': 'missing_scope' },
      ),
      true,
    );
  }

  const users = ctx.config.users;
  const limitText = arg('limit');
  let limit = users.length;
  if (limitText !== undefined && limitText !== '') {
    // Not a documented error of users.list; answered as conversations.list does.
    if (!/^\d+$/.test(limitText)) return done(slackError('invalid_limit'), true);
    // 0 is the documented default: the whole set.
    limit = Number(limitText) === 0 ? users.length : Math.min(MAX_LIMIT, Number(limitText));
  }
  let start = 0;
  const cursor = arg('cursor');
  if (cursor) {
    const id = decodeCursor(cursor);
    start = id === undefined ? -1 : users.findIndex((u) => u.id === id);
    if (start < 0) return done(slackError('invalid_cursor'), true);
  }
  const page = users.slice(start, start + limit);
  const next = users[start + limit];
  const updated = Math.floor(ctx.now() / 1000);
  return done(
    jsonAnswer({
      ok: true,
      members: page.map((u) => describe(u, updated)),
      cache_ts: updated,
      response_metadata: { next_cursor: next ? encodeCursor(next.id) : '' },
    }),
    true,
  );
}
