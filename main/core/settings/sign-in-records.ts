// What the settings file keeps of a Sign in with Slack: the workspace (made on the first
// successful sign-in, named after the team), its public client ID and team, who signed in, and
// when the access token expires. The tokens themselves are in the keychain (auth/token-store.ts).
import type { Workspace } from '../model';
import { DEFAULT_MAX_FILE_BYTES } from './defaults';
import { fail, requireWorkspace, sameName } from './input-rules';
import type { Settings } from './schema';
import type { SettingsAccess } from './settings-access';

export interface SignInRecord {
  baseUrl: string;
  clientId: string;
  teamId: string;
  teamName: string;
  userName: string;
  tokenExpiresAt: number;
}

/** "Acme", or "Acme (2)" when a workspace already has that name. */
function freeName(settings: Settings, wanted: string): string {
  const taken = (name: string) => settings.workspaces.some((w) => sameName(w.name, name));
  if (!taken(wanted)) return wanted;
  for (let n = 2; ; n += 1) if (!taken(`${wanted} (${n})`)) return `${wanted} (${n})`;
}

export function signInRecords(access: SettingsAccess) {
  const { update } = access;
  return {
    /** Saves a finished sign-in: to this workspace, or to a new one named after the team. */
    recordSignIn(workspace: { id: string; isNew: boolean }, record: SignInRecord): Workspace {
      return update((s) => {
        let w: Workspace;
        if (workspace.isNew) {
          w = {
            id: workspace.id,
            name: freeName(s, record.teamName.trim() || 'Slack'),
            baseUrl: record.baseUrl,
            protocol: 'external',
            maxFileBytes: DEFAULT_MAX_FILE_BYTES,
          };
          s.workspaces.push(w);
        } else {
          w = requireWorkspace(s, workspace.id);
          // A token never follows a workspace to another origin (workspaces.ts): a sign-in made
          // elsewhere is never recorded on it.
          if (new URL(record.baseUrl).origin !== new URL(w.baseUrl).origin) {
            fail(
              'signed_in_elsewhere',
              `${w.name} is at ${new URL(w.baseUrl).origin}, not ${new URL(record.baseUrl).origin}.`,
            );
          }
          w.baseUrl = record.baseUrl;
        }
        Object.assign(w, { ...record, auth: 'slack' });
        return { ...w };
      });
    },
    /** The new access token's expiry, after a renewal. */
    setTokenExpiry(workspaceId: string, tokenExpiresAt: number): void {
      update((s) => {
        const w = s.workspaces.find((x) => x.id === workspaceId);
        if (w) w.tokenExpiresAt = tokenExpiresAt;
      });
    },
    /** Signed out: the workspace stays (its presets too) and goes back to wanting a token. */
    clearSignIn(workspaceId: string): void {
      update((s) => {
        const w = s.workspaces.find((x) => x.id === workspaceId);
        if (!w) fail('not_found', 'That workspace no longer exists.');
        delete w.tokenExpiresAt;
        delete w.userName;
      });
    },
  };
}
