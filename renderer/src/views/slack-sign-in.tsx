// Sign in with Slack as a person sees it: one button, "Waiting for you to approve in your
// browser…" with Cancel while the browser is out, then who signed in, to keep or not, or one
// sentence saying why not (the core's, per reason; nothing is saved then). The waiting and the
// answers (sign-in-progress.tsx) are the same for "Sign in again" on a card (signed-in-panel.tsx).
import { useState } from 'preact/hooks';
import { BUILT_IN_SLACK_CLIENT_ID } from '../../../main/portable/build-defaults';
import { checkBaseUrl } from '../../../main/portable/credentials';
import type { SetupLink } from '../../../main/portable/setup-link';
import { useOfferedSetupLink } from '../setup-link-store';
import { Notice } from '../ui/notice';
import { TextField } from '../ui/text-field';
import { KnownAppChoices, NoAppChoices } from './sign-in-choices';
import { SignInHost } from './sign-in-host';
import {
  ConfirmWho,
  SignInFailure,
  useFocusOnFailure,
  useSignIn,
  Waiting,
} from './sign-in-progress';

function clientIdError(value: string, attempted: boolean): string | null {
  if (value.trim() === '') return attempted ? 'Paste the Slack app’s Client ID.' : null;
  return /^[A-Za-z0-9._-]{1,200}$/.test(value.trim())
    ? null
    : 'A client ID has only digits, letters, dots and dashes, such as 1234567890.1234567890123.';
}

/** The service and client ID to sign in with: a team's set-up link's, else the build's. */
function useSetupLinkFields() {
  const [offered, takeOffered] = useOfferedSetupLink();
  const [link, setLink] = useState<SetupLink | null>(offered);
  // A packaged build may carry the team's client ID (build/RELEASE.md); a link's wins.
  const known = link?.clientId ?? BUILT_IN_SLACK_CLIENT_ID;
  const [baseUrl, setBaseUrl] = useState(link?.baseUrl ?? 'https://slack.com');
  const [clientId, setClientId] = useState(known);
  // A link that arrives while the form is open fills it in, as one that opened the app does.
  if (offered && offered !== link) {
    setLink(offered);
    setBaseUrl(offered.baseUrl);
    setClientId(offered.clientId);
  }
  return { link, known, baseUrl, setBaseUrl, clientId, setClientId, takeOffered };
}

/** A new workspace by Sign in with Slack; named after the team, and only once signed in. */
export function SignInWithSlack(props: {
  cancellable: boolean;
  onSignedIn: (workspaceId: string) => void;
  onUseToken: () => void;
  onCancel: () => void;
}) {
  const { link, known, baseUrl, setBaseUrl, clientId, setClientId, takeOffered } =
    useSetupLinkFields();
  const [attempted, setAttempted] = useState(false);
  const signIn = useSignIn((result) => {
    takeOffered();
    props.onSignedIn(result.workspaceId);
  });
  const urlCheck = checkBaseUrl(baseUrl);
  const urlError = urlCheck.ok ? null : urlCheck.message;
  const idError = clientIdError(clientId, attempted);
  const ready = urlError === null && clientIdError(clientId, true) === null;

  useFocusOnFailure(signIn, 'sign-in-answer');

  const submit = (e: Event) => {
    e.preventDefault();
    setAttempted(true);
    if (!ready || signIn.waiting || signIn.asking) return;
    void signIn.start({ baseUrl: baseUrl.trim(), clientId: clientId.trim() });
  };

  const cancel = () => {
    takeOffered();
    props.onCancel();
  };
  const fields = (
    <SignInFields
      clientId={clientId}
      baseUrl={baseUrl}
      idError={idError}
      urlError={urlError}
      onClientId={setClientId}
      onBaseUrl={setBaseUrl}
    />
  );

  return (
    <form class="card card--new" onSubmit={submit} noValidate aria-labelledby="sign-in-title">
      <h3 id="sign-in-title" class="card__title">
        Sign in with Slack
      </h3>
      {known === '' ? null : <SignInIntro team={link?.name} />}
      {/* Where a set-up link (or the build) sends the person, when it is not slack.com. */}
      {known === '' ? null : <SignInHost baseUrl={baseUrl} clientId={clientId} />}
      <SignInFailure failure={signIn.failure} error={signIn.error} id="sign-in-answer" />
      {signIn.waiting ? (
        <Waiting onCancel={signIn.cancel} />
      ) : signIn.asking ? (
        <ConfirmWho
          asking={signIn.asking}
          busy={signIn.busy}
          id="sign-in-confirm"
          onAnswer={(keep) => void signIn.answer(keep)}
        />
      ) : known === '' ? (
        <NoAppChoices
          fields={fields}
          link={ready ? { baseUrl: baseUrl.trim(), clientId: clientId.trim() } : null}
          cancellable={props.cancellable}
          onCancel={cancel}
          onUseToken={props.onUseToken}
        />
      ) : (
        <KnownAppChoices
          fields={fields}
          open={!ready}
          cancellable={props.cancellable}
          onCancel={cancel}
          onUseToken={props.onUseToken}
        />
      )}
    </form>
  );
}

/** Whose set-up link filled the form in, and what signing in does. */
function SignInIntro(props: { team: string | undefined }) {
  return (
    <>
      {props.team ? (
        <Notice tone="info">{`Set up from your team’s link for ${props.team}.`}</Notice>
      ) : null}
      <p class="field__help">
        Opens Slack in your browser: approve there and come back. Files you share are posted as you,
        and you never see or paste a token.
      </p>
    </>
  );
}

/** Client ID and base URL of the Slack app to sign in with. */
function SignInFields(props: {
  clientId: string;
  baseUrl: string;
  idError: string | null;
  urlError: string | null;
  onClientId: (value: string) => void;
  onBaseUrl: (value: string) => void;
}) {
  return (
    <div class="field-row">
      <TextField
        id="sign-in-client-id"
        label="Client ID"
        mono
        value={props.clientId}
        placeholder="1234567890.1234567890123"
        error={props.idError}
        onInput={props.onClientId}
      />
      <TextField
        id="sign-in-url"
        label="Base URL"
        grow
        mono
        value={props.baseUrl}
        error={props.urlError}
        onInput={props.onBaseUrl}
      />
    </div>
  );
}
