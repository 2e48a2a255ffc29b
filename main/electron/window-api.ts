// The API the window calls over IPC (TrayshareApi): the core's methods as they are, the OS
// methods (shell-api.ts), and the few core methods whose answer also changes the tray.
import type {
  AppService,
  CoreMethodName,
  PreferencesPatch,
  PreferencesResult,
  ShellApi,
  TrayshareApi,
  UpdatesApi,
} from '../../preload/contract';
import { coreMethodArgs } from '../core/api';
import type { DesktopState } from './desktop-state';

export function windowApi(deps: {
  service: AppService;
  shellApi: ShellApi;
  state: Pick<DesktopState, 'needsToken'>;
  setPreferences(patch: PreferencesPatch): Promise<PreferencesResult>;
  /** The tray and the taskbar progress. */
  refresh(): void;
  updates: UpdatesApi;
}): TrayshareApi {
  const { service, state, refresh } = deps;
  const core = {} as Record<CoreMethodName, (...args: never[]) => Promise<unknown>>;
  for (const method of Object.keys(coreMethodArgs) as CoreMethodName[]) {
    core[method] = (...args: never[]) =>
      (service[method] as (...a: never[]) => Promise<unknown>)(...args);
  }
  return {
    ...(core as unknown as TrayshareApi),
    ...deps.shellApi,
    getUpdates: () => deps.updates.getUpdates(),
    checkUpdatesNow: () => deps.updates.checkUpdatesNow(),
    restartToUpdate: () => deps.updates.restartToUpdate(),
    cancelRestart: () => deps.updates.cancelRestart(),
    setPreferences: deps.setPreferences,
    setToken: async (workspaceId, token) => {
      await service.setToken(workspaceId, token);
      state.needsToken.delete(workspaceId);
      refresh();
    },
    saveToken: async (workspaceId, token) => {
      const result = await service.saveToken(workspaceId, token);
      if (result.saved) {
        state.needsToken.delete(workspaceId);
        refresh();
      }
      return result;
    },
    // Signed in again: the workspace no longer waits for the person (tray, notifications).
    signInWithSlack: async (request) => {
      const result = await service.signInWithSlack(request);
      if (result.ok === true) {
        state.needsToken.delete(result.workspaceId);
        refresh();
      }
      return result;
    },
    // Kept once the person confirmed who signed in: the same as a sign-in kept at once.
    confirmSignIn: async (pendingId, keep) => {
      const result = await service.confirmSignIn(pendingId, keep);
      if (result.ok) {
        state.needsToken.delete(result.workspaceId);
        refresh();
      }
      return result;
    },
    removeWorkspace: async (workspaceId) => {
      await service.removeWorkspace(workspaceId);
      state.needsToken.delete(workspaceId);
      refresh();
    },
  };
}
