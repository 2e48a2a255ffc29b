// What Sign in with Slack asks of a Slack app, shared by the core (the flow), the app's manifest
// and set-up screens, and the reference service's defaults, so they can never disagree.

/**
 * Slack matches a loopback redirect URL's port exactly: a random port is refused with
 * "redirect_uri did not match any configured URIs" (observed with Slack's own MCP app,
 * https://github.com/anomalyco/opencode/issues/18955, where clients pin port 3118). So the
 * listener uses fixed ports, and the Slack app lists a redirect URL for each. One port is
 * fragile (53682 is also rclone's OAuth port, and a second sign-in holds it), so there are
 * three, tried in order. 53682 stays first: a Slack app made from the first manifest lists only
 * it, and keeps working whenever that port is free.
 */
export const SLACK_REDIRECT_PORTS: readonly number[] = [53682, 53683, 53684];

/** The path the browser is sent back to on the loopback listener. */
export const SLACK_REDIRECT_PATH = '/slack/callback';

/**
 * `localhost`, the host Slack's PKCE guide names for desktop redirects
 * (https://docs.slack.dev/authentication/using-pkce: "Redirects to localhost … are treated as
 * desktop redirects"); the listener binds the loopback addresses it may resolve to,
 * 127.0.0.1 and ::1 (auth/loopback.ts).
 */
export function slackRedirectUri(port: number = SLACK_REDIRECT_PORTS[0]!): string {
  return `http://localhost:${port}${SLACK_REDIRECT_PATH}`;
}

/** Every redirect URL the Slack app lists, in the order they are tried. */
export function slackRedirectUris(): string[] {
  return SLACK_REDIRECT_PORTS.map((port) => slackRedirectUri(port));
}

/**
 * User scopes Trayshare needs (service contract, "Sign-in"): files:write to post as the person,
 * files:read for each shared file's link and the check after an unclear completion (files.info),
 * the four *:read scopes for conversations.list, users:read for the names of DM partners.
 */
export const SLACK_USER_SCOPES = [
  'files:write',
  'files:read',
  'channels:read',
  'groups:read',
  'im:read',
  'mpim:read',
  'users:read',
] as const;

/**
 * A Slack client ID is two runs of digits joined by a dot ("2141029472.691202649728", the
 * example in https://docs.slack.dev/reference/methods/oauth.v2.access). Checked before the
 * browser opens, because Slack shows a wrong one only in the browser (RFC 6749 §4.1.2.1: no
 * redirect back on an invalid client_id), where the app cannot see it.
 */
export function looksLikeSlackClientId(value: string): boolean {
  return /^\d{4,20}\.\d{4,20}$/.test(value.trim());
}
