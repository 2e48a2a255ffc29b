// The core API's Sign in with Slack methods, put together from the flow (sign-in.ts) and sign
// out (sign-out.ts), with what a sign-in changes elsewhere: the workspace's waiting files go,
// its channel lists are asked again, and the window is told. And the renewal of a signed-in
// workspace's token that the composition root hands to the modules that read tokens.
import type { CoreApi } from '../api';
import { type Directory, forgetLists } from '../conversations/directory';
import type { UploadQueue } from '../queue/upload-queue';
import type { SecretStore } from '../secrets/secret-store';
import type { SettingsService } from '../settings/settings-service';
import type { Transport } from '../upload/transport';
import { openRenewal, type Renewal } from './renewal';
import { openSignIn } from './sign-in';
import { openSignOut } from './sign-out';

/** What the sign-in needs of the process that runs it (the app service's deps carry these). */
export interface SignInDeps {
  secrets: SecretStore;
  transport: Transport;
  /**
   * Opens a URL in the person's browser (Sign in with Slack's consent page): the Electron side
   * passes shell.openExternal, the CLI its own opener. Absent or failing: 'no_browser'.
   */
  openBrowser?: (url: string) => Promise<void>;
  /**
   * The sign-in's loopback ports, tried in order (default SLACK_REDIRECT_PORTS, the ones the
   * Slack app lists; the CLI's --port); tests pass free ones that their reference service lists.
   */
  signInPorts?: readonly number[];
  /** One loopback port only: signInPorts of one. */
  signInPort?: number;
  /** How long a sign-in waits for the browser (default 5 minutes; the CLI's --timeout). */
  signInTimeoutMs?: number;
}

export function openAuthMethods(parts: {
  settings: SettingsService;
  queue: UploadQueue;
  directory: Directory;
  deps: SignInDeps;
  renewal: Renewal | undefined;
  tokens: { changed(): void };
}): Pick<CoreApi, 'signInWithSlack' | 'confirmSignIn' | 'cancelSignIn' | 'signOut'> {
  const { settings, queue, deps } = parts;
  const tokenChanged = (workspaceId: string) => {
    forgetLists(parts.directory, workspaceId);
    parts.tokens.changed();
  };
  const signIn = openSignIn({
    settings,
    secrets: deps.secrets,
    transport: deps.transport,
    ...(deps.openBrowser ? { openBrowser: deps.openBrowser } : {}),
    ...(deps.signInPorts !== undefined
      ? { ports: deps.signInPorts }
      : deps.signInPort !== undefined
        ? { ports: [deps.signInPort] }
        : {}),
    ...(deps.signInTimeoutMs !== undefined ? { timeoutMs: deps.signInTimeoutMs } : {}),
    onSignedIn: (workspaceId) => {
      tokenChanged(workspaceId);
      // A new sign-in is the answer to a "Sign in again" pause.
      queue.resumeWorkspace(workspaceId);
    },
  });
  const signOut = openSignOut({
    settings,
    secrets: deps.secrets,
    transport: deps.transport,
    queue,
    ...(parts.renewal ? { renewal: parts.renewal } : {}),
    onSignedOut: tokenChanged,
  });
  return { ...signIn, signOut };
}

/** A signed-in workspace's token renewal; none for a token given to the process (TRAYSHARE_TOKEN). */
export function renewalFor(
  settings: SettingsService,
  deps: { secrets: SecretStore; transport: Transport; dataDir: string; tokenOverride?: string },
  onExpired: () => void,
): Renewal | undefined {
  if (deps.tokenOverride) return undefined;
  return openRenewal({
    secrets: deps.secrets,
    transport: deps.transport,
    workspace: (id) => settings.workspace(id),
    setTokenExpiry: (id, at) => settings.setTokenExpiry(id, at),
    lockDir: deps.dataDir,
    onExpired,
  });
}
