// The team's set-up link: what an admin shares so each person only has to sign in. It carries
// the service address, the Slack app's client ID and a name for the workspace: all public (a
// client ID is not a secret), never a token. Built in the window, read by the shell
// (main/core/setup-link.ts checks every field before anything is pre-filled).

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
