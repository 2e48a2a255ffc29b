// Whether each workspace's token was refused by the service since it was saved (auth.test, or
// an upload stopped for it), so Settings shows "refused", not "saved"; and the token methods
// that change it. A keychain problem or a missing token is not the service refusing one.
import type { AppService, Snapshot } from '../api';
import type { UploadQueue } from '../queue/upload-queue';
import { RefusedError } from '../refused-error';
import type { SettingsService } from '../settings/settings-service';
import { checkAndSaveToken } from '../settings/token-save';
import { SERVICE_ERRORS } from '../upload/error-messages';
import type { Transport } from '../upload/transport';

type TokenMethods = Pick<AppService, 'setToken' | 'saveToken' | 'clearToken' | 'testConnection'>;

export interface TokenStatus extends TokenMethods {
  /** The settings, each workspace marked with why its token was refused, if it was. */
  snapshot(): Promise<Snapshot>;
  /** Tells the listener the settings as they are now. */
  changed(): void;
}

export function openTokenStatus(deps: {
  settings: SettingsService;
  queue: UploadQueue;
  transport: Transport;
  /** A token was saved or removed: what was learnt with the old one no longer holds. */
  onTokenChanged: (workspaceId: string) => void;
  onChanged: (snapshot: Snapshot) => void;
}): TokenStatus {
  const { settings, queue } = deps;
  const refusedByCheck = new Map<string, string>();
  const serviceRefused = (code: string) => SERVICE_ERRORS[code]?.class === 'credential';
  const refusal = (workspaceId: string): string | undefined =>
    refusedByCheck.get(workspaceId) ??
    queue
      .list()
      .find(
        (i) =>
          i.workspaceId === workspaceId &&
          i.state === 'waiting' &&
          i.error?.class === 'credential' &&
          serviceRefused(i.error.code),
      )?.error?.message;
  const snapshot = async (): Promise<Snapshot> => {
    const snap = await settings.getSnapshot();
    return {
      ...snap,
      workspaces: snap.workspaces.map((w) => {
        const why = w.hasToken ? refusal(w.id) : undefined;
        return why ? { ...w, tokenRefused: why } : w;
      }),
    };
  };
  const changed = () => {
    void snapshot().then(deps.onChanged);
  };
  return {
    snapshot,
    changed,
    setToken: async (workspaceId, token) => {
      await settings.setToken(workspaceId, token);
      deps.onTokenChanged(workspaceId);
      // A new token is the answer to a credential pause.
      refusedByCheck.delete(workspaceId);
      queue.resumeWorkspace(workspaceId);
      changed();
    },
    saveToken: async (workspaceId, token) => {
      const workspace = settings.workspace(workspaceId);
      if (!workspace) throw new RefusedError('That workspace no longer exists.');
      return checkAndSaveToken(workspace, token, {
        transport: deps.transport,
        save: async (checked) => {
          // Kept only while the workspace is still at the origin auth.test was asked at.
          await settings.setToken(workspaceId, checked, workspace.baseUrl);
          deps.onTokenChanged(workspaceId);
          refusedByCheck.delete(workspaceId);
          queue.resumeWorkspace(workspaceId);
          changed();
        },
      });
    },
    clearToken: async (workspaceId) => {
      await settings.clearToken(workspaceId);
      deps.onTokenChanged(workspaceId);
      refusedByCheck.delete(workspaceId);
      changed();
    },
    testConnection: async (workspaceId) => {
      const check = await settings.testConnection(workspaceId);
      const before = refusedByCheck.get(workspaceId);
      if (check.refused) refusedByCheck.set(workspaceId, check.message);
      else if (check.ok) refusedByCheck.delete(workspaceId);
      if (before !== refusedByCheck.get(workspaceId)) changed();
      return check;
    },
  };
}
