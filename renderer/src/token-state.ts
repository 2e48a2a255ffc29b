// A workspace's token as a person reads it in Settings, and as the channel picker and the
// channel names key their lists on: a list fetched before the token was saved is stale.
import type { WorkspaceView } from '../../preload/contract';

export type TokenState = 'refused' | 'saved' | 'missing';

/** Signed in with Slack: the person sends as themselves (no app to invite anywhere). */
export const signedIn = (w: WorkspaceView | undefined): boolean => w?.auth === 'slack';

export function tokenState(w: WorkspaceView | undefined): TokenState {
  return w?.tokenRefused ? 'refused' : w?.hasToken ? 'saved' : 'missing';
}
