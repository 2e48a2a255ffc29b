// The keychain asked once at the app's start, so a locked or missing keychain is said before
// the person's first share finds it.
import type { AppService } from '../api';
import { KeychainError, type SecretStore } from './secret-store';
import { accessAccount } from './workspace-secrets';

/** A message when the keychain cannot be used (asked with a workspace's id, or a made-up one). */
export async function keychainProblemAtStart(
  service: Pick<AppService, 'getSnapshot'>,
  secrets: Pick<SecretStore, 'get'>,
  log: (message: string) => void,
): Promise<string | null> {
  try {
    const snapshot = await service.getSnapshot();
    const first = snapshot.workspaces[0];
    await secrets.get(first ? accessAccount(first) : 'trayshare-keychain-check');
    return null;
  } catch (error) {
    const message = error instanceof KeychainError ? error.message : String(error);
    // Into the log too: with no workspace yet, nothing else reads the keychain at start.
    log(`Keychain at start: ${message}`);
    return message;
  }
}
