// Sign in with Slack (OAuth 2.0 authorization code with PKCE S256 through a loopback redirect,
// RFC 8252): a fresh state and verifier per attempt, the browser on the consent page, the
// callback with this attempt's state, the code exchanged at oauth.v2.access, then auth.test for
// "@alice in Acme". Nothing is saved unless every step succeeded (sign-in-keep.ts keeps what was
// given), and, for a new workspace or another account, unless the person confirmed who signed in
// (sign-in-confirm.ts says why). Cancel ends the attempt at any step before the tokens are kept;
// tokens that arrive after it are revoked, never kept.

import { checkBaseUrl } from '../../portable/credentials';
import { errorMessage } from '../../portable/error-message';
import {
  looksLikeSlackClientId,
  SLACK_REDIRECT_PORTS,
  SLACK_USER_SCOPES,
} from '../../portable/slack-sign-in';
import type { SignInEnd, SignInRequest, SignInResult } from '../api';
import type { Workspace } from '../model';
import type { SecretStore } from '../secrets/secret-store';
import { parseArgs } from '../settings/input-rules';
import type { SettingsService } from '../settings/settings-service';
import type { Transport } from '../upload/transport';
import {
  AllPortsTakenError,
  type CallbackOutcome,
  type LoopbackListener,
  openLoopback,
  type TabOutcome,
} from './loopback';
import { authorizeUrl, exchangeCode, revokeToken } from './oauth-client';
import { newPkcePair, newState } from './pkce';
import { holderText, portHolders } from './port-holder';
import { needsConfirmation, openConfirmations } from './sign-in-confirm';
import { checkSignIn, dropTokens, exchangeFailure, keepSignIn } from './sign-in-keep';
import { signInMessages as say } from './sign-in-messages';
import { CANCELLED, unlessCancelled } from './unless-cancelled';

export interface SignInDeps {
  settings: SettingsService;
  secrets: SecretStore;
  transport: Transport;
  openBrowser?: (url: string) => Promise<void>;
  /** The loopback ports, tried in order; the Slack app must list http://localhost:PORT/slack/callback for each. */
  ports?: readonly number[];
  /** How long the browser has (default 5 minutes). */
  timeoutMs?: number;
  /** Signed in (or again): resume the workspace's waiting files, reload its lists. */
  onSignedIn(workspaceId: string): void;
}

type Deps = SignInDeps & {
  ports: readonly number[];
  timeoutMs: number;
  confirmations: ReturnType<typeof openConfirmations>;
};

const FIVE_MINUTES = 5 * 60_000;

interface Attempt {
  baseUrl: string;
  clientId: string;
  existing: Workspace | undefined;
  listener: LoopbackListener;
  url: string;
  verifier: string;
  signal: AbortSignal;
}

type Waited = CallbackOutcome | { kind: 'timeout' } | typeof CANCELLED;

/** The browser's answer with this attempt's state, the time limit, or Cancel: whichever is first. */
async function waitForBrowser(deps: Deps, a: Attempt): Promise<Waited> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Waited>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timeout' }), deps.timeoutMs);
  });
  try {
    return await unlessCancelled(a.signal, Promise.race([a.listener.callback, timeout]));
  } finally {
    clearTimeout(timer);
  }
}

/** The browser, its answer, and the exchange; then keeping what was given (sign-in-keep.ts). */
async function attempt(deps: Deps, a: Attempt): Promise<SignInResult> {
  if (!deps.openBrowser) return say.noBrowser('this program has no browser to open');
  try {
    if ((await unlessCancelled(a.signal, deps.openBrowser(a.url))) === CANCELLED) {
      return say.cancelled();
    }
  } catch (error) {
    return say.noBrowser(errorMessage(error));
  }
  const waited = await waitForBrowser(deps, a);
  if (waited === CANCELLED) return say.cancelled();
  if (waited.kind === 'timeout') return say.timeout(deps.timeoutMs);
  if (waited.kind === 'error') {
    return waited.error === 'access_denied'
      ? say.accessDenied()
      : say.other(`Slack answered "${waited.error}" instead of signing in.`);
  }
  const exchange = exchangeCode(
    a.baseUrl,
    {
      clientId: a.clientId,
      code: waited.code,
      verifier: a.verifier,
      redirectUri: a.listener.redirectUri,
    },
    deps.transport,
  );
  const exchanged = await unlessCancelled(a.signal, exchange);
  if (exchanged === CANCELLED) {
    // Cancelled while the service answered: whatever it gives is ended there, not kept.
    void exchange.then((late) => {
      if (late.ok) void revokeToken(a.baseUrl, late.tokens.accessToken, deps.transport);
    });
    return say.cancelled();
  }
  if (!exchanged.ok) {
    return exchangeFailure(exchanged.error, exchanged.detail, a.clientId, a.listener.redirectUri);
  }
  const tokens = exchanged.tokens;
  const who = await checkSignIn(deps, { ...a, tokens });
  if ('ok' in who) return who;
  const keep = async (): Promise<SignInEnd> => {
    const kept = await keepSignIn(deps, { ...a, tokens, who });
    if (kept.ok) deps.onSignedIn(kept.workspaceId);
    return kept;
  };
  if (!needsConfirmation(a.existing, who)) return keep();
  if (a.signal.aborted) {
    void dropTokens(deps, a.baseUrl, tokens);
    return say.cancelled();
  }
  return deps.confirmations.hold({ who, keep, drop: () => dropTokens(deps, a.baseUrl, tokens) });
}

/** What the browser tab says: connected, why not, or to confirm in Trayshare. */
function tabOutcome(result: SignInResult): TabOutcome {
  if (result.ok === 'confirm') {
    return {
      ok: 'confirm',
      message: `Signed in as ${result.user} in ${result.team}: go back to Trayshare to keep this sign-in.`,
    };
  }
  return result.ok ? { ok: true, message: '' } : { ok: false, message: result.message };
}

/** Every port taken: which, and by what where the OS can tell. */
async function portsTaken(ports: readonly number[]): Promise<SignInResult> {
  const held = await Promise.all(
    ports.map(async (port) => {
      const holders = await portHolders(port);
      return holders.length > 0 ? `${port} by ${holders.map(holderText).join(' and ')}` : `${port}`;
    }),
  );
  return say.portsInUse(held);
}

async function run(
  deps: Deps,
  request: { baseUrl: string; clientId: string; existing: Workspace | undefined },
  signal: AbortSignal,
): Promise<SignInResult> {
  const { baseUrl, clientId, existing } = request;
  const pkce = newPkcePair();
  const state = newState();
  let listener: LoopbackListener;
  try {
    listener = await openLoopback({ ports: deps.ports, expectedState: state });
  } catch (error) {
    if (error instanceof AllPortsTakenError) return portsTaken(error.ports);
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
    result = await attempt(deps, { ...request, listener, url, verifier: pkce.verifier, signal });
  } catch (error) {
    // Never left listening on the port, whatever went wrong.
    await listener.finish({ ok: false, message: 'Trayshare could not finish signing in.' });
    throw error;
  }
  // Closes every connection, so it never keeps the sign-in waiting (loopback.ts).
  await listener.finish(tabOutcome(result));
  return result;
}

/** The request checked, or why it cannot be signed in. */
function checkRequest(
  deps: SignInDeps,
  request: SignInRequest,
): SignInResult | { baseUrl: string; clientId: string; existing: Workspace | undefined } {
  const [checked] = parseArgs('signInWithSlack', [request]);
  const baseUrl = checked.baseUrl.trim().replace(/\/+$/, '');
  const clientId = checked.clientId.trim();
  const urlCheck = checkBaseUrl(baseUrl);
  if (!urlCheck.ok) return say.other(urlCheck.message);
  if (!looksLikeSlackClientId(clientId)) return say.invalidClientId(clientId);
  const existing = checked.workspaceId ? deps.settings.workspace(checked.workspaceId) : undefined;
  if (checked.workspaceId && !existing) return say.other('That workspace no longer exists.');
  // A token never follows a workspace to another origin (settings/workspaces.ts): signing in
  // again is at the workspace's own service, or not at all. Refused before anything opens, so
  // nothing is sent anywhere, the old sign-in's token included.
  const own = existing ? new URL(existing.baseUrl).origin : undefined;
  if (existing && own !== new URL(baseUrl).origin) {
    return say.otherService(existing.name, own!, new URL(baseUrl).origin);
  }
  return { baseUrl, clientId, existing };
}

export function openSignIn(deps: SignInDeps) {
  const confirmations = openConfirmations();
  const full: Deps = {
    ...deps,
    ports: deps.ports ?? SLACK_REDIRECT_PORTS,
    timeoutMs: deps.timeoutMs ?? FIVE_MINUTES,
    confirmations,
  };
  let current: AbortController | undefined;
  let running: Promise<SignInResult> | undefined;

  async function signInWithSlack(request: SignInRequest): Promise<SignInResult> {
    const checked = checkRequest(deps, request);
    if ('ok' in checked) return checked;
    // One sign-in at a time in this process: a new attempt ends the waiting one, and starts
    // once it has closed its listener. (Another process, the CLI, uses another port.) A sign-in
    // that waits for the person's confirmation ends unkept: only the newest one is on screen.
    current?.abort();
    confirmations.drop();
    const controller = new AbortController();
    current = controller;
    const before = running;
    const mine = (async () => {
      await before?.catch(() => undefined);
      if (controller.signal.aborted) return say.cancelled();
      return run(full, checked, controller.signal);
    })().finally(() => {
      if (current === controller) current = undefined;
    });
    running = mine;
    return mine;
  }

  return {
    signInWithSlack,
    confirmSignIn: confirmations.confirm,
    cancelSignIn: async () => {
      current?.abort();
      confirmations.drop();
    },
  };
}
