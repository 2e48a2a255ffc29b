// A sign-in that waits for the person to say "this is my account" before anything is kept.
//
// The consent page's address, with its state and PKCE challenge, is on the command line of the
// program that opens the browser: Electron's shell.openExternal on Linux runs
// `XDGOpen(base::FilePath(), url.spec(), …)` (electron shell/common/platform_util_linux.cc), the
// CLI runs xdg-open with it (cli/open-browser.ts), and xdg-open starts the browser with it. Any
// local user can read another's command line in /proc/<pid>/cmdline ("This read-only file holds
// the complete command line for the process", man7.org proc_pid_cmdline(5); unless /proc is
// mounted with hidepid).
// With it, someone else can approve the consent as themselves and send the browser's answer to
// our loopback port first: the code is then theirs, and the person's files would go to their
// workspace. PKCE and the state cannot tell that apart (both were in the address), so the person
// is shown who signed in and decides. The tokens wait here, in this process only, never in the
// window; whatever is not kept is revoked at the service.
import { randomUUID } from 'node:crypto';
import type { SignInEnd, SignInToConfirm } from '../api';
import type { Workspace } from '../model';
import type { SignedInAs } from './sign-in-keep';
import { signInMessages as say } from './sign-in-messages';

/** A checked sign-in, with what keeping it and ending it do. */
export interface Unconfirmed {
  who: SignedInAs;
  keep(): Promise<SignInEnd>;
  /** Revokes the tokens at the service. */
  drop(): Promise<{ ok: boolean }>;
}

/** How long a sign-in waits for the person's answer before its tokens are revoked. */
const WAITS_FOR_ANSWER_MS = 10 * 60_000;

/**
 * Whether the person must confirm who signed in. Not when a workspace is signed in again by the
 * person it was signed in by before, in the same team (checkSignIn refused any other team): an
 * approval by someone else would carry their own account, never this one, so the same account
 * can only be the person's. A new workspace, one never signed in (a pasted token), one signed
 * out (who is forgotten then), or another account of the same team: asked.
 */
export function needsConfirmation(existing: Workspace | undefined, who: SignedInAs): boolean {
  return existing?.userName === undefined || existing.userName !== who.userName;
}

/** At most one sign-in waits for its answer in a process: a new one, or Cancel, ends it. */
export function openConfirmations() {
  let waiting: { id: string; sign: Unconfirmed; timer: NodeJS.Timeout } | undefined;

  /** The waiting sign-in, if any, taken out of waiting. */
  function take(): Unconfirmed | undefined {
    if (!waiting) return undefined;
    const { sign, timer } = waiting;
    clearTimeout(timer);
    waiting = undefined;
    return sign;
  }

  /** Ends the waiting sign-in unkept, its tokens revoked (not waited for). */
  function drop(): void {
    void take()
      ?.drop()
      .catch(() => undefined);
  }

  return {
    hold(sign: Unconfirmed): SignInToConfirm {
      drop();
      const id = randomUUID();
      // Unref'd: a CLI that has nothing else to do is not kept alive by it.
      const timer = setTimeout(() => {
        if (waiting?.id === id) drop();
      }, WAITS_FOR_ANSWER_MS).unref();
      waiting = { id, sign, timer };
      return {
        ok: 'confirm',
        pendingId: id,
        user: `@${sign.who.userName}`,
        team: sign.who.teamName,
      };
    },
    async confirm(pendingId: string, keep: boolean): Promise<SignInEnd> {
      if (waiting?.id !== pendingId) return say.noLongerWaiting();
      const sign = take()!;
      if (keep) return sign.keep();
      const revoked = await sign.drop().catch(() => ({ ok: false }));
      return say.notKept(`@${sign.who.userName}`, sign.who.teamName, revoked.ok);
    },
    drop,
  };
}
