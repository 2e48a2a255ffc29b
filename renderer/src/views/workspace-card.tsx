// One saved workspace as a card: its details (name, address, protocol), how it signs in (Slack
// or a token), Test connection and Remove, and what the last check said. Just added, the card
// takes focus at the next step, so the form that went away does not leave focus on nothing.
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import type {
  ConnectionCheck,
  Protocol,
  QueueItem,
  TokenSaved,
  WorkspaceView,
} from '../../../preload/contract';
import { api } from '../bridge';
import { ConfirmButton } from '../ui/confirm-button';
import { ActionError, Notice } from '../ui/notice';
import { ServiceWording } from '../ui/service-wording';
import { TextField } from '../ui/text-field';
import { type Action, useAction } from '../use-action';
import { SignedInAdvanced, SignedInPanel } from './signed-in-panel';
import { type Added, baseUrlError, PROTOCOLS, ProtocolField } from './workspace-fields';
import { TokenField } from './workspace-token';

/**
 * "Remove Acme, its token and its 2 presets (Design review, Random)?", and what happens to the
 * files still waiting to go there: removing it cancels them.
 */
function removalQuestion(name: string, presets: readonly string[], waiting: number): string {
  const which =
    presets.length === 0
      ? ''
      : presets.length === 1
        ? ` and its preset “${presets[0]}”`
        : ` and its ${presets.length} presets (${presets.map((p) => `“${p}”`).join(', ')})`;
  const files =
    waiting === 0
      ? ''
      : ` ${waiting === 1 ? '1 file is' : `${waiting} files are`} waiting to be sent there: removing it cancels ${waiting === 1 ? 'it' : 'them'}.`;
  const what = presets.length === 0 ? `${name} and its token` : `${name}, its token${which}`;
  return `Remove ${what}?${files}`;
}

export function WorkspaceCard(props: {
  workspace: WorkspaceView;
  presets: readonly string[];
  /** Its uploads not finished yet (queued, waiting or sending). */
  waiting?: readonly QueueItem[];
  added?: Added | null;
}) {
  const w = props.workspace;
  const waiting = props.waiting ?? [];
  const prefix = `ws-${w.id}`;
  const [check, setCheck] = useState<ConnectionCheck | TokenSaved | null>(
    props.added?.check ?? null,
  );
  // The card appears as soon as the workspace is saved, before adding it has checked the token.
  const addedCheck = props.added?.check;
  useEffect(() => {
    if (addedCheck) setCheck(addedCheck);
  }, [addedCheck]);
  // Just added: focus goes to what the service said of the token, or to the token field when
  // none was given (the next step), not to nothing where the form was.
  const justAdded = props.added !== null && props.added !== undefined;
  const signedIn = w.auth === 'slack';
  useLayoutEffect(() => {
    if (!justAdded) return;
    const next = signedIn ? 'signed-in' : addedCheck ? 'result' : 'token';
    document.getElementById(`${prefix}-${next}`)?.focus();
  }, [justAdded, addedCheck, prefix, signedIn]);
  const secret = useAction();
  const test = useAction();
  const remove = useAction();

  const testButton = (
    <button
      type="button"
      class="button"
      disabled={test.busy || !w.hasToken}
      onClick={async () => {
        setCheck(null);
        secret.clear();
        const result = await test.run(() => api().testConnection(w.id));
        if (result) setCheck(result);
      }}
    >
      {test.busy ? 'Testing…' : 'Test connection'}
    </button>
  );

  return (
    <article class="card" aria-labelledby={`${prefix}-title`}>
      <h3 id={`${prefix}-title`} class="card__title">
        {w.name}
      </h3>
      {signedIn ? (
        // Signed in with Slack: who and where, and Sign out; no token to see or handle. The
        // service's address, protocol and a connection test are there for whoever needs them.
        <>
          <SignedInPanel workspace={w} waiting={waiting} />
          <SignedInAdvanced prefix={prefix}>
            <WorkspaceDetails workspace={w} prefix={prefix} />
            {testButton}
          </SignedInAdvanced>
        </>
      ) : (
        <>
          <WorkspaceDetails workspace={w} prefix={prefix} />
          <TokenField
            workspace={w}
            prefix={prefix}
            check={check}
            setCheck={setCheck}
            secret={secret}
            test={test}
          />
        </>
      )}
      <div class="card__footer">
        {signedIn ? null : testButton}
        <RemoveWorkspace workspace={w} presets={props.presets} waiting={waiting} remove={remove} />
      </div>
      {/* What the last check said, where focus goes after adding the workspace. */}
      <div id={`${prefix}-result`} class="card__result" tabIndex={-1}>
        {props.added?.protocolNote ? <Notice tone="info">{props.added.protocolNote}</Notice> : null}
        {check ? <ConnectionResult check={check} /> : null}
        <ActionError error={test.error} />
      </div>
      <ActionError error={remove.error} />
    </article>
  );
}

/** Name, base URL and protocol, saved together with Save changes. */
function WorkspaceDetails(props: { workspace: WorkspaceView; prefix: string }) {
  const { workspace: w, prefix } = props;
  const [name, setName] = useState(w.name);
  const [baseUrl, setBaseUrl] = useState(w.baseUrl);
  const [protocol, setProtocol] = useState<Protocol>(w.protocol);
  const [saved, setSaved] = useState<string | null>(null);
  const details = useAction();
  const urlError = baseUrlError(baseUrl, true);
  const changed = name !== w.name || baseUrl !== w.baseUrl || protocol !== w.protocol;

  const saveDetails = async (e: Event) => {
    e.preventDefault();
    if (urlError || name.trim() === '') return;
    const done = await details.run(() =>
      api().updateWorkspace(w.id, { name: name.trim(), baseUrl: baseUrl.trim(), protocol }),
    );
    if (done) setSaved('Saved.');
  };
  // Any edit takes back "Saved." until the next save.
  const edit =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setSaved(null);
    };

  return (
    <form class="card__form" onSubmit={saveDetails} noValidate>
      <div class="field-row">
        <TextField id={`${prefix}-name`} label="Name" value={name} onInput={edit(setName)} />
        <TextField
          id={`${prefix}-url`}
          label="Base URL"
          grow
          mono
          value={baseUrl}
          error={urlError}
          onInput={edit(setBaseUrl)}
        />
      </div>
      <div class="field-row">
        <ProtocolField
          id={`${prefix}-protocol`}
          value={protocol}
          options={PROTOCOLS}
          onChange={edit(setProtocol)}
        />
        <div class="field field--end">
          <button
            type="submit"
            class="button"
            disabled={!changed || details.busy || urlError !== null || name.trim() === ''}
          >
            Save changes
          </button>
          {saved && !changed ? (
            <span class="field__ok" role="status">
              {saved}
            </span>
          ) : null}
        </div>
      </div>
      <ActionError error={details.error} />
    </form>
  );
}

/** Remove workspace, asking first, and cancelling its waiting files before it goes. */
function RemoveWorkspace(props: {
  workspace: WorkspaceView;
  presets: readonly string[];
  waiting: readonly QueueItem[];
  remove: Action;
}) {
  const { workspace: w, waiting, remove } = props;
  return (
    <ConfirmButton
      label="Remove workspace"
      ariaLabel={`Remove workspace ${w.name}`}
      question={removalQuestion(w.name, props.presets, waiting.length)}
      confirmLabel={waiting.length === 0 ? 'Remove' : 'Cancel them and remove'}
      keepLabel={waiting.length === 0 ? 'Keep' : 'Keep the workspace'}
      onConfirm={async () => {
        const removed = await remove.run(async () => {
          // Cancelled first, while the workspace still exists: nothing goes on sending
          // to a workspace that is gone, and nothing is left failing with a dead Retry.
          for (const item of waiting) await api().cancelItem(item.id);
          await api().removeWorkspace(w.id);
          return true;
        });
        // The card is gone: on to adding another, the section's own action.
        if (removed) document.getElementById('ws-add')?.focus();
      }}
    />
  );
}

/** Says once who the token is for ("Connected as U0TEST in Acme."), or why not. */
function ConnectionResult(props: { check: ConnectionCheck | TokenSaved }) {
  const { check } = props;
  if (!check.checked) return <Notice tone="info">{check.message}</Notice>;
  if (!check.ok)
    return (
      <Notice tone="error">
        <ServiceWording message={check.message} inSettings />
      </Notice>
    );
  const who = [check.user && `as ${check.user}`, check.team && `in ${check.team}`]
    .filter(Boolean)
    .join(' ');
  const saved = 'saved' in check ? ' Token saved.' : '';
  return <Notice tone="success">{`Connected${who ? ` ${who}` : ''}.${saved}`}</Notice>;
}
