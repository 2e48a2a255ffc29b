// files.info (https://docs.slack.dev/reference/methods/files.info): the file object of one file,
// with its permalink and the messages that carried it (`shares`). Needs the files:read scope.
// Arguments come as a form or JSON body (POST) or in the query string (GET, as
// python-slack-sdk's files_info sends them). Answer shape:
// `{"ok":true,"file":{…},"comments":[],"response_metadata":{"next_cursor":""}}`, as in
// node-slack-sdk's packages/web-api/src/types/response/FilesInfoResponse.ts.
import { readArgs, stringArg } from './api-args';
import { authenticate, finish, startFault } from './api-common';
import type { ServiceContext } from './context';
import { type Answer, type Exchange, jsonAnswer, slackError } from './exchange';
import { describeHeldFile } from './shared-files';

const SCOPE = 'files:read';

export async function filesInfo(
  ctx: ServiceContext,
  ex: Exchange,
  query: URLSearchParams,
): Promise<void> {
  const fault = await startFault(ctx, ex, 'files.info');
  if (fault === 'handled') return;
  const done = (answer: Answer, bodyRead: boolean) => finish(ctx, ex, fault, answer, bodyRead);

  const auth = authenticate(ex.req.headers, ctx.config, ctx.oauth, ctx.revokedTokens);
  if (!auth.ok) return done(auth.answer, false);
  const { scopes } = auth.grant;
  if (scopes && !scopes.includes(SCOPE)) {
    // Slack's missing_scope names what the method needed and what the token has.
    return done(
      jsonAnswer(
        { ok: false, error: 'missing_scope', needed: SCOPE, provided: scopes.join(',') },
        200,
        { 'x-slack-failure': 'missing_scope' },
      ),
      false,
    );
  }

  let id = query.get('file') ?? undefined;
  let bodyRead = false;
  if (ex.req.method === 'POST') {
    const parsed = await readArgs(ex);
    if (parsed.kind === 'aborted') return;
    if (parsed.kind === 'invalid') return done(slackError(parsed.code), parsed.bodyRead);
    id = stringArg(parsed.args, 'file') ?? id;
    bodyRead = true;
  }
  if (!id) return done(slackError('invalid_arguments'), bodyRead);

  const held = ctx.files.get(id);
  const ticket = ctx.external.byId(id);
  // Another person's upload that was never shared is not theirs to see; an upload discarded
  // for not being completed in time no longer exists.
  const hidden =
    !held ||
    (held.user !== auth.grant.user && held.shares.size === 0) ||
    (ticket !== undefined && (await ctx.external.expireIfDue(ticket)));
  if (hidden) return done(slackError('file_not_found'), bodyRead);
  return done(
    jsonAnswer({
      ok: true,
      file: describeHeldFile(ctx.url, held, ctx.conversations),
      comments: [],
      response_metadata: { next_cursor: '' },
    }),
    bodyRead,
  );
}
