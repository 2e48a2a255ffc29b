// What the Sign in with Slack form leads with. Where a Slack app is known
// (the build's client ID, or a team's set-up link), a person only signs in and picks the
// workspace on Slack's page; the service address, the client ID and a token are other ways, out
// of the way. Where none is known, a newcomer cannot sign in yet: the form says to ask the Slack
// admin for the team's set-up link, or to use a token; creating the team's Slack app is the
// admin's part, folded under a disclosure for them.
import type { ComponentChildren } from 'preact';
import type { SetupLink } from '../../../main/portable/setup-link';
import { CopySetupLink, CreateSlackApp, PasteSetupLink } from './slack-team-setup';

/** A Slack app is known: Sign in with Slack; the rest folded under "Other ways to connect". */
export function KnownAppChoices(props: {
  fields: ComponentChildren;
  /** The details were not enough to sign in (a bad address or ID): open them. */
  open: boolean;
  cancellable: boolean;
  onCancel: () => void;
  onUseToken: () => void;
}) {
  return (
    <>
      <div class="actions">
        {props.cancellable ? (
          <button type="button" class="button" onClick={props.onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" class="button button--primary">
          Sign in with Slack
        </button>
      </div>
      <details class="sign-in__details" open={props.open}>
        <summary>Other ways to connect</summary>
        {props.fields}
        <div class="inline">
          <button type="button" class="button" onClick={props.onUseToken}>
            Use a token
          </button>
        </div>
      </details>
    </>
  );
}

/** No Slack app known: ask the admin for the set-up link, or use a token; the admin's part folded. */
export function NoAppChoices(props: {
  fields: ComponentChildren;
  /** The admin's client ID and address, once both are right: a link to copy for the team. */
  link: SetupLink | null;
  cancellable: boolean;
  onCancel: () => void;
  onUseToken: () => void;
}) {
  return (
    <>
      <p class="sign-in__lead">
        <strong>Ask your Slack admin for a Trayshare set-up link.</strong> Opening it fills this in,
        and you only sign in. Or connect with a token from your Slack app.
      </p>
      <PasteSetupLink />
      <div class="actions">
        {props.cancellable ? (
          <button type="button" class="button" onClick={props.onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="button" class="button button--primary" onClick={props.onUseToken}>
          Use a token
        </button>
      </div>
      {/* Open again once its details are filled in (after a sign-in that did not finish). */}
      <details class="sign-in__details" open={props.link !== null}>
        <summary>I look after our Slack: set Trayshare up for the team</summary>
        <CreateSlackApp />
        {props.fields}
        {props.link ? <CopySetupLink link={props.link} /> : null}
        <div class="inline">
          <button type="submit" class="button">
            Sign in with Slack
          </button>
        </div>
      </details>
    </>
  );
}
