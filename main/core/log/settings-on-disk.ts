// What the log needs of the settings (a workspace's name and protocol, "Detailed logs"), read
// from the settings file as it is on disk. Not the service's snapshot: that asks the keychain
// for every workspace's token, so each CLI command would pay a keychain round trip (and, with a
// locked keyring, a failed unlock) for its log lines. Read-only, never repairs or writes, and
// forgiving: what cannot be read is "unknown", and Detailed logs stay off.
import { readFileSync, statSync } from 'node:fs';
import { settingsFilePath } from '../settings/settings-file';

export interface LogSettings {
  detailed: boolean;
  workspace(id: string): { name?: string; protocol?: string } | undefined;
}

const NOTHING: LogSettings = { detailed: false, workspace: () => undefined };

function parse(text: string): LogSettings {
  const data = JSON.parse(text) as {
    preferences?: { detailedLogs?: unknown };
    workspaces?: unknown;
  };
  const workspaces = Array.isArray(data.workspaces) ? (data.workspaces as unknown[]) : [];
  const byId = new Map<string, { name?: string; protocol?: string }>();
  for (const w of workspaces) {
    if (typeof w !== 'object' || w === null) continue;
    const { id, name, protocol } = w as Record<string, unknown>;
    if (typeof id !== 'string') continue;
    byId.set(id, {
      ...(typeof name === 'string' ? { name } : {}),
      // A workspace saved before protocols were chosen uses files.upload (schema.ts's default).
      protocol: typeof protocol === 'string' ? protocol : 'files.upload',
    });
  }
  return { detailed: data.preferences?.detailedLogs === true, workspace: (id) => byId.get(id) };
}

/** The settings as the log needs them, read again only when the file changed. */
export function settingsOnDisk(dataDir: string): () => LogSettings {
  const path = settingsFilePath(dataDir);
  let seen = '';
  let current = NOTHING;
  return () => {
    try {
      const stat = statSync(path);
      const key = `${stat.mtimeMs}:${stat.size}`;
      if (key !== seen) {
        current = parse(readFileSync(path, 'utf8'));
        seen = key;
      }
    } catch {
      current = NOTHING;
      seen = '';
    }
    return current;
  };
}
