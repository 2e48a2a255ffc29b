// Sign in with Slack (OAuth 2.0 authorization code with PKCE S256 through a loopback redirect,
// RFC 8252): a fresh state and verifier per attempt, the browser on the consent page, one
// callback, the code exchanged at oauth.v2.user.access, then auth.test for "@alice in Acme".
// Nothing is saved unless every step succeeded (sign-in-keep.ts keeps what was given).
import { checkBaseUrl } from '../../portable/credentials';
import {
  looksLikeSlackClientId,
  SLACK_REDIRECT_PORT,
  SLACK_USER_SCOPES,
} from '../../portable/slack-sign-in';
import type { SignInRequest, SignInResult } from '../api';
import type { Workspace } from '../model';
import type { SecretStore } from '../secrets/secret-store';
import { parseArgs } from '../settings/input-rules';
import type { SettingsService } from '../settings/settings-service';
import type { Transport } from '../upload/transport';
import {
  type CallbackOutcome,
  type LoopbackListener,
  openLoopback,
  PortInUseError,
} from './loopback';
import { authorizeUrl, exchangeCode } from './oauth-client';
import { newPkcePair, newState } from './pkce';
import { exchangeFailure, keepSignIn } from './sign-in-keep';
import { signInMessages as say } from './sign-in-messages';

export interface SignInDeps {
  settings: SettingsService;
  secrets: SecretStore;
  transport: Transport;
  openBrowser?: (url: string) => Promise<void>;
  /** The loopback port; the Slack app must list http://localhost:PORT/slack/callback. */
  port?: number;
  /** How long the browser has (default 5 minutes). */
  timeoutMs?: number;
  /** Signed in (or again): resume the workspace's waiting files, reload its lists. */
  onSignedIn(workspaceId: string): void;
}

const FIVE_MINUTES = 5 * 60_000;

interface Context {
  deps: SignInDeps & { port: number; timeoutMs: number };
  waitForBrowser: (listener: LoopbackListener) => Promise<Waited>;
}

interface Attempt {
  baseUrl: string;
  clientId: string;
  existing: Workspace | undefined;
  listener: LoopbackListener;
  url: string;
  verifier: string;
}

/** The browser, its answer, and the exchange; then keeping what was given (sign-in-keep.ts). */
async function attempt(
  deps: SignInDeps & { port: number; timeoutMs: number },
  waitForBrowser: (listener: LoopbackListener) => Promise<Waited>,
  a: Attempt,
): Promise<SignInResult> {
  if (!deps.openBrowser) return say.noBrowser('this program has no browser to open');
  try {
    await deps.openBrowser(a.url);
  } catch (error) {
    return say.noBrowser(error instanceof Error ? error.message : String(error));
  }
  const waited = await waitForBrowser(a.listener);
  switch (waited.kind) {
    case 'timeout':
      return say.timeout(deps.timeoutMs);
    case 'cancelled':
      return say.cancelled();
    case 'state_mismatch':
      return say.stateMismatch();
    case 'error':
      return waited.error === 'access_denied'
        ? say.accessDenied()
        : say.other(`Slack answered "${waited.error}" instead of signing in.`);
  }
  const exchanged = await exchangeCode(
    a.baseUrl,
    {
      clientId: a.clientId,
      code: waited.code,
      verifier: a.verifier,
      redirectUri: a.listener.redirectUri,
    },
    deps.transport,
  );
  if (!exchanged.ok) {
    return exchangeFailure(exchanged.error, exchanged.detail, a.clientId, deps.port);
  }
  return keepSignIn(deps, { ...a, tokens: exchanged.tokens });
}

type Waited = CallbackOutcome | { kind: 'timeout' } | { kind: 'cancelled' };

async function run(
  ctx: Context,
  baseUrl: string,
  clientId: string,
  existing: Workspace | undefined,
): Promise<SignInResult> {
  const { deps, waitForBrowser } = ctx;
  const { port } = deps;
  const pkce = newPkcePair();
  const state = newState();
  let listener: LoopbackListener;
  try {
    listener = await openLoopback({ port, expectedState: state });
  } catch (error) {
    if (error instanceof PortInUseError) return say.portInUse(port);
    throw error;
  }
  const url = authorizeUrl(baseUrl, {
    clientId,
    scopes: SLACK_USER_SCOPES,
    redirectUri: listener.redirectUri,
    state,
    challenge: pkce.challenge,
    ...(existing?.teamId ? { team: existing.teamId } : {}),
  });
  let result: SignInResult;
  try {
    result = await attempt(deps, waitForBrowser, {
      baseUrl,
      clientId,
      existing,
      listener,
      url,
      verifier: pkce.verifier,
    });
  } catch (error) {
    // Never left listening on the port, whatever went wrong.
    await listener.finish({ ok: false, message: 'Trayshare could not finish signing in.' });
    throw error;
  }
  await listener.finish(
    result.ok ? { ok: true, message: '' } : { ok: false, message: result.message },
  );
  if (result.ok) deps.onSignedIn(result.workspaceId);
  return result;
}

export function openSignIn(deps: SignInDeps) {
  const port = deps.port ?? SLACK_REDIRECT_PORT;
  const timeoutMs = deps.timeoutMs ?? FIVE_MINUTES;
  let cancelCurrent: (() => void) | undefined;
  let running: Promise<SignInResult> | undefined;

  function waitForBrowser(listener: LoopbackListener): Promise<Waited> {
    let timer: NodeJS.Timeout | undefined;
    return new Promise<Waited>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs);
      cancelCurrent = () => resolve({ kind: 'cancelled' });
      void listener.callback.then(resolve);
    }).finally(() => {
      clearTimeout(timer);
      cancelCurrent = undefined;
    });
  }

  async function signInWithSlack(request: SignInRequest): Promise<SignInResult> {
    const [checked] = parseArgs('signInWithSlack', [request]);
    const baseUrl = checked.baseUrl.trim().replace(/\/+$/, '');
    const clientId = checked.clientId.trim();
    const urlCheck = checkBaseUrl(baseUrl);
    if (!urlCheck.ok) return say.other(urlCheck.message);
    if (!looksLikeSlackClientId(clientId)) return say.invalidClientId(clientId);
    const existing = checked.workspaceId ? deps.settings.workspace(checked.workspaceId) : undefined;
    if (checked.workspaceId && !existing) return say.other('That workspace no longer exists.');
    // One sign-in at a time: the port is one. A new attempt ends the waiting one, and starts
    // once it has closed its listener.
    cancelCurrent?.();
    const before = running;
    const mine = (async () => {
      await before?.catch(() => undefined);
      return run(
        { deps: { ...deps, port, timeoutMs }, waitForBrowser },
        baseUrl,
        clientId,
        existing,
      );
    })();
    running = mine;
    return mine;
  }

  return {
    signInWithSlack,
    cancelSignIn: async () => {
      cancelCurrent?.();
    },
  };
}
