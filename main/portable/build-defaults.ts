// Values set when a package is built, not at run time. A release build may carry a default
// Slack client ID (build/RELEASE.md: TRAYSHARE_SLACK_CLIENT_ID at build time), so people of a
// team whose admin made one Slack app only sign in. A client ID is public, not a secret.

declare const __TRAYSHARE_SLACK_CLIENT_ID__: string | undefined;

/** '' when the build carries none (the default): then the set-up path asks for one. */
export const BUILT_IN_SLACK_CLIENT_ID: string =
  // typeof keeps tests and unbundled runs, where nothing defines it, from throwing.
  typeof __TRAYSHARE_SLACK_CLIENT_ID__ === 'string' ? __TRAYSHARE_SLACK_CLIENT_ID__.trim() : '';
