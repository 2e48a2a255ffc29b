// What the settings file keeps of a Sign in with Slack: the workspace (made on the first
// successful sign-in, named after the team), its public client ID and team, who signed in, and
// when the access token expires. The tokens themselves are in the keychain
// (secrets/workspace-secrets.ts), kept in the same step as the record.
import type { Workspace } from '../model';
import { type TokenPair, workspaceSecrets } from '../secrets/workspace-secrets';
import { DEFAULT_MAX_FILE_BYTES } from './defaults';
import { fail, requireWorkspace, sameName } from './input-rules';
import type { Settings } from './schema';
import type { SettingsAccess } from './settings-access';
import { refuseIfMoved } from './workspace-tokens';

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

const SIGNING_IN = 'you were signing in';

export function signInRecords(access: SettingsAccess) {
  const { read, update, serial } = access;
  /** The sign-in written to the settings file: to this workspace, or to a new one named after the team. */
  const record = (workspace: { id: string; isNew: boolean }, record: SignInRecord): Workspace =>
    update((s) => {
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
        // A token never follows a workspace to another origin (workspaces.ts): a sign-in made
        // elsewhere is never recorded on it, checked on the file as this change reads it.
        refuseIfMoved(s, workspace.id, record.baseUrl, SIGNING_IN);
        w = requireWorkspace(s, workspace.id);
        w.baseUrl = record.baseUrl;
      }
      Object.assign(w, { ...record, auth: 'slack' });
      return { ...w };
    });

  return {
    /** The tokens to the keychain and the sign-in to the file, as one step (settings-service.ts). */
    recordSignIn(
      workspace: { id: string; isNew: boolean },
      signIn: SignInRecord,
      tokens: TokenPair,
    ): Promise<Workspace> {
      return serial(async () => {
        // Signed in again: the workspace must still be where the browser signed in (this process
        // or another may have moved it while the tab waited). Asked again as the file is written.
        if (!workspace.isNew) refuseIfMoved(read(), workspace.id, signIn.baseUrl, SIGNING_IN);
        const home = { id: workspace.id, baseUrl: signIn.baseUrl };
        const undo = await workspaceSecrets(access.secrets).savePair(home, tokens);
        try {
          return record(workspace, signIn);
        } catch (error) {
          await undo();
          throw error;
        }
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
