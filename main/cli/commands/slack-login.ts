// `trayshare login --slack` and signing out: Sign in with Slack from the terminal, through the
// same core flow as the app (main/core/auth/). The browser opens on the consent page, or with
// --no-browser the link is printed (stdout) for the person to open; the command waits for the
// answer, then says "Signed in as @alice in Acme". Ctrl+C cancels; nothing is saved then.
// A new workspace (or another account than the one signed in before) is kept only once the
// person says the account is theirs: asked on a terminal, or --yes for scripts, since someone
// else on the computer may have approved the consent page first (core/auth/sign-in-confirm.ts).
// Signing in needs the settings and the keychain only, never the upload queue: so it takes no
// queue lock, and two sign-ins (two terminals, or one beside the app) run at once, each on the
// first free port the Slack app lists.
import type { CoreApi, SignInEnd, SignInToConfirm } from '../../core/api';
import { BUILT_IN_SLACK_CLIENT_ID } from '../../portable/build-defaults';
import { openBrowser } from '../open-browser';
import { askYesNo, say } from '../terminal';
import { UsageError } from '../usage-error';

export interface SlackLoginOptions {
  workspace: string;
  clientId?: string;
  baseUrl?: string;
  /** commander's --no-browser. */
  browser: boolean;
  /** Seconds to wait for the browser (default 300). */
  timeout?: string;
  /** The loopback port, or several separated by commas, tried in order. */
  port?: string;
  /** Keep the sign-in without asking who signed in (scripts, no terminal). */
  yes?: boolean;
}

/** Where the person can be asked: both the keyboard and the messages are a terminal. */
const canAsk = () => process.stdin.isTTY === true && process.stderr.isTTY === true;

const NOT_ASKED =
  'Trayshare keeps a new sign-in only once you confirm who signed in, and cannot ask here (no terminal): run it in a terminal, or add --yes to keep whoever signs in.';

function positive(value: string | undefined, what: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max)
    throw new UsageError(`${what} is a whole number from 1 to ${max}.`);
  return n;
}

/** "53682" or "53682,53683": each a port, in the order given. */
function ports(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const list = value.split(',').map((part) => positive(part.trim(), '--port', 65_535)!);
  return list.length > 0 ? list : undefined;
}

const printLink = async (url: string): Promise<void> => {
  say('Open this link in a browser to sign in (waiting for you to approve; Ctrl+C cancels):');
  process.stdout.write(`${url}\n`);
};

export async function slackLogin(options: SlackLoginOptions): Promise<void> {
  const timeout = positive(options.timeout, '--timeout', 3600);
  const signInPorts = ports(options.port);
  const opener = options.browser
    ? async (url: string) => {
        await openBrowser(url);
        say("Your browser shows Slack's consent page: approve there (Ctrl+C cancels).");
      }
    : printLink;
  const [{ openCliSettings, cliSecrets, cliTransport }, { openSignIn }] = await Promise.all([
    import('../context'),
    import('../../core/auth/sign-in'),
  ]);
  const settings = openCliSettings();
  const name = options.workspace.trim();
  const existing = settings
    .read()
    .workspaces.find(
      (w) => w.name.toLowerCase() === name.toLowerCase() || w.id === options.workspace,
    );
  // Refused before the browser opens, so nobody approves a sign-in that cannot be kept. (One
  // signed in again can still need asking, when another account answers: said at the end.)
  if (!existing && options.yes !== true && !canAsk()) throw new UsageError(NOT_ASKED);
  const clientId = options.clientId ?? existing?.clientId ?? BUILT_IN_SLACK_CLIENT_ID;
  if (!clientId) {
    throw new UsageError(
      "Give the Slack app's client ID with --client-id (your team's admin has it): this build carries no default.",
    );
  }
  const flow = openSignIn({
    settings,
    secrets: cliSecrets(),
    transport: cliTransport(),
    openBrowser: opener,
    ...(timeout ? { timeoutMs: timeout * 1000 } : {}),
    ...(signInPorts ? { ports: signInPorts } : {}),
    // Waiting files go with the next `trayshare queue --run` (or the app), which reads the keychain.
    onSignedIn: () => undefined,
  });
  const cancel = () => void flow.cancelSignIn();
  process.once('SIGINT', cancel);
  const asked = await flow
    .signInWithSlack({
      baseUrl: options.baseUrl ?? existing?.baseUrl ?? 'https://slack.com',
      clientId,
      ...(existing ? { workspaceId: existing.id } : {}),
    })
    .finally(() => process.off('SIGINT', cancel));
  const result = asked.ok === 'confirm' ? await confirm(flow, asked, options.yes === true) : asked;
  if (!result.ok) {
    say(result.message);
    process.exitCode = 1;
    return;
  }
  // A new workspace is named after the team; the name the person gave wins.
  if (!existing && result.team !== name) {
    await settings.updateWorkspace(result.workspaceId, { name }).catch(() => undefined);
  }
  say(`Signed in as ${result.user} in ${result.team}.`);
}

/** Says who signed in, and keeps it if the person (or --yes) says so; otherwise ends it. */
async function confirm(
  flow: Pick<CoreApi, 'confirmSignIn'>,
  asked: SignInToConfirm,
  yes: boolean,
): Promise<SignInEnd> {
  say(`Slack signed in ${asked.user} in ${asked.team}.`);
  if (yes) return flow.confirmSignIn(asked.pendingId, true);
  if (!canAsk()) {
    const dropped = await flow.confirmSignIn(asked.pendingId, false);
    return dropped.ok ? dropped : { ...dropped, message: `${NOT_ASKED} ${dropped.message}` };
  }
  const keep = await askYesNo(
    `Keep this sign-in? Answer no if ${asked.user} in ${asked.team} is not you. [y/N] `,
  );
  return flow.confirmSignIn(asked.pendingId, keep);
}

/** `trayshare logout` of a signed-in workspace: revoked at the service, both tokens removed. */
export async function slackLogout(
  workspace: { id: string; name: string },
  evenIfWaiting: boolean,
): Promise<void> {
  const { withService } = await import('../context');
  await withService(
    async (service) => {
      const result = await service.signOut(workspace.id, { evenIfWaiting });
      if (result.ok) {
        // Says whether the service ended the sign-in, never more than it did.
        say(result.message);
        if (!result.revoked) process.exitCode = 1;
        return;
      }
      say(
        `${result.waiting === 1 ? '1 file still waits' : `${result.waiting} files still wait`} to be sent to ${workspace.name}: send ${result.waiting === 1 ? 'it' : 'them'} first (trayshare queue --run), or sign out anyway with --even-if-waiting.`,
      );
      process.exitCode = 1;
    },
    { lookOnly: true },
  );
}
