// The team's set-up link: what an admin shares so each person only has to sign in. It carries
// the service address, the Slack app's client ID and a name for the workspace: all public (a
// client ID is not a secret), never a token. Built in the window, read by the shell
// (main/core/setup-link-check.ts checks every field before anything is pre-filled).

export const SETUP_SCHEME = 'trayshare';
/** trayshare://setup?base_url=…&client_id=…&name=… */
export const SETUP_HOST = 'setup';
export const SETUP_PARAMS = { baseUrl: 'base_url', clientId: 'client_id', name: 'name' } as const;

export interface SetupLink {
  baseUrl: string;
  clientId: string;
  /** What the workspace is called until sign-in names it after the team. */
  name?: string;
}

export function setupLinkFor(link: SetupLink): string {
  const query = new URLSearchParams();
  query.set(SETUP_PARAMS.baseUrl, link.baseUrl);
  query.set(SETUP_PARAMS.clientId, link.clientId);
  if (link.name) query.set(SETUP_PARAMS.name, link.name);
  return `${SETUP_SCHEME}://${SETUP_HOST}?${query.toString()}`;
}

/** What the person must see of a link's service before anything opens (and why). */
export interface SetupLinkHost {
  /** The host as the browser will reach it: an international name in its ASCII (xn--) form. */
  host: string;
  /** slack.com or one of its subdomains: Slack's own servers. */
  isSlack: boolean;
  /** A Slack app's client ID (two runs of digits) sent to a host that is not Slack's. */
  slackIdElsewhere: boolean;
}

/**
 * The host a sign-in with this service and client ID goes to. A stranger's server can carry a
 * Slack-looking client ID and a Slack-looking name, so the host is what is shown, in the form
 * that cannot look like another (the URL parser's ASCII form of an international name).
 */
export function setupLinkHost(baseUrl: string, clientId: string): SetupLinkHost | undefined {
  let host: string;
  try {
    host = new URL(baseUrl.trim()).host.toLowerCase();
  } catch {
    return undefined;
  }
  const hostname = host.replace(/:\d+$/, '');
  const isSlack = hostname === 'slack.com' || hostname.endsWith('.slack.com');
  const slackShaped = /^\d{4,20}\.\d{4,20}$/.test(clientId.trim());
  return { host, isSlack, slackIdElsewhere: slackShaped && !isSlack };
}
