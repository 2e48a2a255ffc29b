// Slack's consent pages, as plain HTML forms (Approve, Deny) that a test's fetch or a real
// Chromium can both submit, and the form's POST, which sends the browser back to the app's
// redirect URL with a code or an error. Two pages, one per documented pair (api-oauth.ts):
// - GET /oauth/v2/authorize, the PKCE pair's: user scopes in `user_scope`, and no `scope` for a
//   desktop redirect ("Desktop redirects are not allowed to request bot scopes",
//   docs.slack.dev/authentication/using-pkce);
// - GET /oauth/v2_user/authorize, the user-only pair's: the user scopes in `scope` (service
//   contract, "Sign-in").
// A code remembers which page it began at. A wrong client_id or redirect_uri is shown on the
// page and never redirected (RFC 6749 §4.1.2.1; Slack shows "redirect_uri did not match any
// configured URIs").
import type { ServiceContext } from './context';
import { type Exchange, textAnswer } from './exchange';
import type { ConsentFlow, ConsentRequest } from './oauth-grants';

/** Each consent page's path; its form posts to the same path plus /decision. */
export const CONSENT_PATHS: Record<ConsentFlow, string> = {
  v2: '/oauth/v2/authorize',
  v2_user: '/oauth/v2_user/authorize',
};

const html = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(status: number, title: string, body: string) {
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy':
        "default-src 'none'; form-action 'self' http://localhost:* http://127.0.0.1:*",
    },
    body: `<!doctype html><html><head><meta charset="utf-8"><title>${html(title)}</title></head><body>${body}</body></html>`,
  };
}

function errorPage(code: string, detail: string) {
  return page(
    400,
    'Slack: something went wrong',
    `<h1>Something went wrong</h1><p id="error" data-error="${code}">${html(code)}: ${html(detail)}</p>`,
  );
}

/** The consent request as asked, or the error the page shows instead of asking. */
function readRequest(
  ctx: ServiceContext,
  query: URLSearchParams,
  flow: ConsentFlow,
): ConsentRequest | { error: string; detail: string } {
  const clientId = query.get('client_id') ?? '';
  const app = ctx.config.oauth.apps.find((a) => a.clientId === clientId);
  if (!app) return { error: 'invalid_client_id', detail: 'Invalid client_id parameter.' };
  const redirectUri = query.get('redirect_uri') ?? '';
  // Matched exactly, port included: Slack refuses a loopback URL on another port than listed.
  if (!app.redirectUrls.includes(redirectUri)) {
    return {
      error: 'bad_redirect_uri',
      detail: `redirect_uri did not match any configured URIs. Passed URI: ${redirectUri}`,
    };
  }
  const scopes = scopesOf(query, flow);
  if ('error' in scopes) return scopes;
  const challenge = query.get('code_challenge') ?? undefined;
  // Slack documents S256; plain is refused here (the reference service's choice, stricter).
  if (challenge !== undefined && query.get('code_challenge_method') !== 'S256') {
    return {
      error: 'invalid_code_challenge_method',
      detail: 'code_challenge_method must be S256.',
    };
  }
  return {
    flow,
    clientId,
    redirectUri,
    state: query.get('state') ?? '',
    scopes,
    ...(challenge ? { codeChallenge: challenge } : {}),
    ...(query.get('team') ? { team: query.get('team')! } : {}),
  };
}

/** The user scopes asked for, where this page's pair takes them. */
function scopesOf(
  query: URLSearchParams,
  flow: ConsentFlow,
): string[] | { error: string; detail: string } {
  const list = (name: string) => (query.get(name) ?? '').split(',').filter(Boolean);
  if (flow === 'v2_user') {
    const scopes = list('scope');
    return scopes.length > 0 ? scopes : { error: 'no_scopes', detail: 'Missing scope.' };
  }
  // "Desktop redirects are not allowed to request bot scopes" (docs.slack.dev/authentication/using-pkce).
  if (list('scope').length > 0) {
    return { error: 'invalid_scope', detail: 'Desktop redirects cannot request bot scopes.' };
  }
  const scopes = list('user_scope');
  return scopes.length > 0 ? scopes : { error: 'no_user_scopes', detail: 'Missing user_scope.' };
}

export function authorizePage(
  ctx: ServiceContext,
  ex: Exchange,
  query: URLSearchParams,
  flow: ConsentFlow,
): void {
  const request = readRequest(ctx, query, flow);
  if ('error' in request) {
    ex.refuseBeforeBody(errorPage(request.error, request.detail));
    return;
  }
  const { signers } = ctx.config.oauth;
  // `_as` (a user ID) is the reference service's own: tests pick who approves.
  const chosen =
    signers.find((s) => s.user === query.get('_as')) ??
    signers.find((s) => s.team.id === request.team) ??
    signers[0]!;
  const id = ctx.oauth.holdRequest(request);
  const options = signers
    .map(
      (s) =>
        `<option value="${html(s.user)}"${s === chosen ? ' selected' : ''}>@${html(s.name)} in ${html(s.team.name)}</option>`,
    )
    .join('');
  const scopes = request.scopes.map((s) => `<li>${html(s)}</li>`).join('');
  ex.refuseBeforeBody(
    page(
      200,
      'Slack: allow access?',
      `<h1>Trayshare is requesting permission to access ${html(chosen.team.name)}</h1>
<form method="post" action="${CONSENT_PATHS[flow]}/decision">
<input type="hidden" name="request" value="${html(id)}">
<label>Sign in as <select name="as">${options}</select></label>
<p>It will be able to act as you:</p><ul id="scopes">${scopes}</ul>
<button type="submit" name="decision" value="deny">Deny</button>
<button type="submit" name="decision" value="approve">Allow</button>
</form>`,
    ),
  );
}

export function decide(ctx: ServiceContext, ex: Exchange, form: Record<string, unknown>): void {
  const request = ctx.oauth.takeRequest(String(form.request ?? ''));
  if (!request) {
    ex.send(errorPage('expired', 'This sign-in page was used already or has expired.'));
    return;
  }
  const back = new URL(request.redirectUri);
  if (form.decision === 'approve') {
    const signer = ctx.config.oauth.signers.find((s) => s.user === form.as);
    if (!signer) {
      ex.send(errorPage('invalid_user', 'No such person.'));
      return;
    }
    back.searchParams.set('code', ctx.oauth.issueCode(request, signer));
  } else {
    back.searchParams.set('error', 'access_denied');
  }
  back.searchParams.set('state', request.state);
  ctx.log(`oauth: ${form.decision === 'approve' ? 'approved' : 'denied'}`);
  ex.send({ ...textAnswer(302, 'Found'), headers: { location: back.href } });
}
