// Adding a workspace with a token, the second choice after Sign in with Slack, for services
// that do not offer it. Nothing is added when the service refuses the token: the refusal is
// said at the token, so the person fixes it there and tries again.
import { useLayoutEffect, useState } from 'preact/hooks';
import type { Protocol } from '../../../preload/contract';
import { api } from '../bridge';
import { ActionError } from '../ui/notice';
import { TextField } from '../ui/text-field';
import { useAction } from '../use-action';
import {
  type Added,
  baseUrlError,
  NEW_PROTOCOLS,
  type NewProtocol,
  ProtocolField,
  tokenError,
} from './workspace-fields';

interface NewFields {
  name: string;
  baseUrl: string;
  protocol: NewProtocol;
  token: string;
}

/** Asks the service, adds the workspace and saves its token; or says why the token was refused. */
function useAddWorkspace(fields: NewFields, onDone: (added?: Added) => void) {
  const { name, baseUrl, protocol, token } = fields;
  const [attempted, setAttempted] = useState(false);
  const action = useAction();
  const tokenProblem = tokenError(token);
  const [refused, setRefused] = useState<string | null>(null);

  // The first field a refused Add names: focus goes there once its message is drawn, so the
  // message is read out with the field (aria-describedby), as a refused token's is.
  const [invalid, setInvalid] = useState<{ id: string } | null>(null);
  useLayoutEffect(() => {
    if (invalid) document.getElementById(invalid.id)?.focus();
  }, [invalid]);

  const add = async (e: Event) => {
    e.preventDefault();
    setAttempted(true);
    const first =
      name.trim() === ''
        ? 'new-ws-name'
        : baseUrlError(baseUrl, true)
          ? 'new-ws-url'
          : tokenProblem
            ? 'new-ws-token'
            : null;
    // A new object each time: a second refused Add focuses the field again.
    if (first) return setInvalid({ id: first });
    setRefused(null);
    const done = await action.run(async (): Promise<Added | { refused: string }> => {
      // The service is asked which protocol it offers (with the token, if one is given), so a
      // new workspace does not start on one the service has retired.
      const probe =
        protocol === 'auto' ? await api().probeProtocol(baseUrl.trim(), token.trim()) : null;
      // A refused token is not a finished step: nothing is added, and the refusal is said at
      // the token, where focus goes.
      if (probe?.refused) return { refused: probe.message };
      const created = await api().addWorkspace({
        name: name.trim(),
        baseUrl: baseUrl.trim(),
        protocol: probe ? probe.protocol : (protocol as Protocol),
      });
      const check = token !== '' ? await api().saveToken(created.id, token.trim()) : null;
      return {
        workspaceId: created.id,
        check,
        protocolNote: probe
          ? `Protocol: ${probe.protocol === 'external' ? 'external upload' : 'files.upload'}. ${probe.message}`
          : `Protocol: ${protocol === 'external' ? 'external upload' : 'files.upload'}, as chosen.`,
      };
    });
    if (done && 'refused' in done) {
      const code = /\(([a-z_]+)\)/.exec(done.refused)?.[1];
      setRefused(
        `The service refused this token, so the workspace was not added. Paste the whole token again (it starts with xoxb-).${code ? ` Service's answer: ${code}.` : ''}`,
      );
    } else if (done) onDone(done);
  };

  useLayoutEffect(() => {
    if (refused) document.getElementById('new-ws-token')?.focus();
  }, [refused]);

  return { attempted, action, tokenProblem, refused, setRefused, add };
}

export function NewWorkspace(props: {
  cancellable: boolean;
  onSignIn: () => void;
  onDone: (added?: Added) => void;
}) {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('https://slack.com');
  const [protocol, setProtocol] = useState<NewProtocol>('auto');
  const [token, setToken] = useState('');
  const adding = useAddWorkspace({ name, baseUrl, protocol, token }, props.onDone);
  const urlError = baseUrlError(baseUrl, adding.attempted);
  const nameError = adding.attempted && name.trim() === '' ? 'Give the workspace a name.' : null;

  return (
    <form class="card card--new" onSubmit={adding.add} noValidate aria-labelledby="new-ws-title">
      <h3 id="new-ws-title" class="card__title">
        New workspace
      </h3>
      <div class="field-row">
        <TextField
          id="new-ws-name"
          label="Name"
          value={name}
          placeholder="Acme"
          error={nameError}
          onInput={setName}
        />
        <TextField
          id="new-ws-url"
          label="Base URL"
          grow
          mono
          value={baseUrl}
          error={urlError}
          onInput={setBaseUrl}
        />
      </div>
      <div class="field-row">
        <ProtocolField
          id="new-ws-protocol"
          value={protocol}
          options={NEW_PROTOCOLS}
          onChange={setProtocol}
        />
        <TextField
          id="new-ws-token"
          label={
            <>
              Token <span class="muted">(optional now)</span>
            </>
          }
          type="password"
          grow
          mono
          value={token}
          placeholder="xoxb-…"
          error={adding.tokenProblem ?? adding.refused}
          onInput={(value) => {
            setToken(value);
            adding.setRefused(null);
          }}
        />
      </div>
      <NewWorkspaceFooter {...props} busy={adding.action.busy} error={adding.action.error} />
    </form>
  );
}

/** Where a token comes from, and Cancel / Sign in with Slack instead / Add workspace. */
function NewWorkspaceFooter(props: {
  cancellable: boolean;
  onSignIn: () => void;
  onDone: (added?: Added) => void;
  busy: boolean;
  error: string | null;
}) {
  return (
    <>
      <p class="field__help" id="new-ws-token-where">
        Where a token comes from: in Slack, api.slack.com/apps → your app → OAuth &amp; Permissions
        → Bot User OAuth Token (xoxb-…), with the files:write scope, and files:read for the links to
        what you share.
      </p>
      <ActionError error={props.error} />
      <div class="actions">
        {props.cancellable ? (
          <button type="button" class="button" onClick={() => props.onDone()}>
            Cancel
          </button>
        ) : null}
        <button type="button" class="button" onClick={props.onSignIn}>
          Sign in with Slack instead
        </button>
        <button type="submit" class="button button--primary" disabled={props.busy}>
          {props.busy ? 'Checking…' : 'Add workspace'}
        </button>
      </div>
    </>
  );
}
