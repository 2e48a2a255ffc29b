// The core API's settings methods: workspaces and their tokens, presets, preferences, the checks
// of what is typed. Wiring only: what a change means for the channel lists and the queue.
import type { AppService } from '../api';
import { type Directory, forgetLists } from '../conversations/directory';
import { describePaths } from '../queue/file-checks';
import type { UploadQueue } from '../queue/upload-queue';
import { DEFAULT_MAX_FILE_BYTES } from '../settings/defaults';
import type { SettingsService } from '../settings/settings-service';
import { probeProtocol } from '../upload/protocol-probe';
import type { Transport } from '../upload/transport';
import type { TokenStatus } from './token-status';

export function settingsMethods(parts: {
  settings: SettingsService;
  queue: UploadQueue;
  directory: Directory;
  transport: Transport;
  tokens: TokenStatus;
}): Pick<
  AppService,
  | 'addWorkspace'
  | 'updateWorkspace'
  | 'removeWorkspace'
  | 'setToken'
  | 'saveToken'
  | 'probeProtocol'
  | 'clearToken'
  | 'testConnection'
  | 'addPreset'
  | 'updatePreset'
  | 'removePreset'
  | 'reorderPresets'
  | 'setDefaultPreset'
  | 'setPreferences'
  | 'checkChannels'
  | 'describePaths'
> {
  const { settings, queue, tokens } = parts;
  return {
    addWorkspace: (input) => settings.addWorkspace(input),
    updateWorkspace: async (id, patch) => {
      const updated = await settings.updateWorkspace(id, patch);
      // Another address may list other channels, and a refusal from the old one no longer holds.
      if (patch.baseUrl !== undefined) forgetLists(parts.directory, id);
      return updated;
    },
    removeWorkspace: async (id) => {
      await settings.removeWorkspace(id);
      forgetLists(parts.directory, id);
    },
    setToken: tokens.setToken,
    saveToken: tokens.saveToken,
    probeProtocol: (baseUrl, token) => probeProtocol(baseUrl, token, parts.transport),
    clearToken: tokens.clearToken,
    testConnection: tokens.testConnection,
    addPreset: (input) => settings.addPreset(input),
    updatePreset: (id, patch) => settings.updatePreset(id, patch),
    removePreset: (id) => settings.removePreset(id),
    reorderPresets: (ids) => settings.reorderPresets(ids),
    setDefaultPreset: (id) => settings.setDefaultPreset(id),
    setPreferences: async (patch) => {
      const result = await settings.setPreferences(patch);
      if (patch.concurrency !== undefined) queue.reschedule();
      return result;
    },
    checkChannels: (text) => settings.checkChannels(text),
    describePaths: ({ paths, workspaceId }) =>
      describePaths(
        paths,
        workspaceId === undefined
          ? Number.MAX_SAFE_INTEGER
          : (settings.workspace(workspaceId)?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES),
      ),
  };
}
