// What the window and the CLI are shown of the settings: the file's contents, whether each
// workspace has a token (never the token), and what was repaired or cannot be read.
import { errorMessage } from '../../portable/error-message';
import type { Snapshot, WorkspaceView } from '../api';
import { KeychainError } from '../secrets/secret-store';
import { workspaceSecrets } from '../secrets/workspace-secrets';
import { APP_VERSION } from '../version';
import type { SettingsAccess } from './settings-access';

export async function settingsSnapshot(
  { read, secrets }: SettingsAccess,
  /** Read after the file: reading it is what finds and repairs a broken one. */
  fileNotice: () => string | undefined,
  paused: () => boolean,
): Promise<Snapshot> {
  const settings = read();
  const tokens = workspaceSecrets(secrets);
  const keychainNotices = new Set<string>();
  const workspaces: WorkspaceView[] = await Promise.all(
    settings.workspaces.map(async (w) => {
      try {
        // Only a token kept for the workspace's present origin counts (workspace-secrets.ts).
        const hasToken = (await tokens.accessToken(w)) !== null;
        if (w.auth !== 'slack' || !hasToken) return { ...w, hasToken };
        // The refresh token is removed when the sign-in runs out (auth/renewal.ts).
        const expired = (await tokens.refreshToken(w)) === null;
        const signedIn = { user: `@${w.userName ?? 'you'}`, team: w.teamName ?? w.name, expired };
        return { ...w, hasToken, signedIn };
      } catch (error) {
        // The settings still show; the person learns why tokens look missing.
        keychainNotices.add(
          error instanceof KeychainError
            ? error.message
            : `The keychain could not be read: ${errorMessage(error)}`,
        );
        return { ...w, hasToken: false };
      }
    }),
  );
  const notices = [fileNotice(), ...keychainNotices].filter(Boolean);
  return {
    workspaces,
    presets: settings.presets,
    defaultPresetId: settings.defaultPresetId,
    preferences: settings.preferences,
    paused: paused(),
    version: APP_VERSION,
    ...(notices.length > 0 ? { settingsNotice: notices.join(' ') } : {}),
  };
}
