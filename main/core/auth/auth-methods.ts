// The core API's Sign in with Slack methods, put together from the flow (sign-in.ts) and sign
// out (sign-out.ts), with what a sign-in changes elsewhere: the workspace's waiting files go,
// its channel lists are asked again, and the window is told.
import type { CoreApi } from '../api';
import type { AppServiceDeps } from '../app-service';
import { type Directory, forgetLists } from '../conversations/directory';
import type { UploadQueue } from '../queue/upload-queue';
import type { SettingsService } from '../settings/settings-service';
import type { Renewal } from './renewal';
import { openSignIn } from './sign-in';
import { openSignOut } from './sign-out';

export function openAuthMethods(parts: {
  settings: SettingsService;
  queue: UploadQueue;
  directory: Directory;
  deps: AppServiceDeps;
  renewal: Renewal | undefined;
  tokens: { changed(): void };
}): Pick<CoreApi, 'signInWithSlack' | 'cancelSignIn' | 'signOut'> {
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
