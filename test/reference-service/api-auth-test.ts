// POST (or GET) /api/auth.test: who the token belongs to, as Slack answers it.
import { authenticate, finish, startFault } from './api-common';
import type { ServiceContext } from './context';
import { type Exchange, jsonAnswer } from './exchange';
import { TEAM } from './file-object';

export async function authTest(ctx: ServiceContext, ex: Exchange): Promise<void> {
  const fault = await startFault(ctx, ex, 'auth.test');
  if (fault === 'handled') return;
  const auth = authenticate(ex.req.headers, ctx.config, ctx.oauth, ctx.revokedTokens);
  if (!auth.ok) return finish(ctx, ex, fault, auth.answer, false);
  if (!(await ex.drainBody())) return;
  const { grant } = auth;
  const answer = jsonAnswer({
    ok: true,
    url: `${ctx.url}/`,
    team: (grant.team ?? TEAM).name,
    user: grant.name ?? grant.user.toLowerCase(),
    team_id: (grant.team ?? TEAM).id,
    user_id: grant.user,
  });
  return finish(ctx, ex, fault, answer, true);
}
