import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { checkBaseUrl, checkToken } from '../../../main/portable/credentials';
import type {
  ConnectionCheck,
  Protocol,
  QueueItem,
  Snapshot,
  TokenSaved,
  WorkspaceView,
} from '../../../preload/contract';
import { api } from '../bridge';
import { isActive } from '../queue-state';
import { useOfferedSetupLink } from '../setup-link-store';
import { ConfirmButton } from '../ui/confirm-button';
import { ActionError, Notice } from '../ui/notice';
import { ServiceWording } from '../ui/service-wording';
import { TextField } from '../ui/text-field';
import { useAction } from '../use-action';
import { SignedInPanel, SignInWithSlack } from './slack-sign-in';

const PROTOCOLS: { value: Protocol; label: string }[] = [
  { value: 'files.upload', label: 'files.upload (one request)' },
  { value: 'external', label: 'External upload (Slack, current)' },
];
type NewProtocol = Protocol | 'auto';
const NEW_PROTOCOLS: { value: NewProtocol; label: string }[] = [
  { value: 'auto', label: 'Whichever the service offers' },
  ...PROTOCOLS,
];

/** What adding a workspace found out, shown on its card until the next check. */
interface Added {
  workspaceId: string;
  check: TokenSaved | null;
  protocolNote: string;
}

/** The base URL's problem as you type, or null. Empty is not reported until a save is tried. */
function baseUrlError(value: string, attempted: boolean): string | null {
  if (value.trim() === '')
    return attempted ? 'Enter the service address, such as https://slack.com.' : null;
  const check = checkBaseUrl(value);
  return check.ok ? null : check.message;
}

/** The token's problem as you type (a pasted webhook URL, spaces), or null; empty is fine here. */
function tokenError(value: string): string | null {
  if (value === '') return null;
  const check = checkToken(value);
  return check.ok ? null : check.message;
}

export function WorkspacesSection(props: { snapshot: Snapshot; queue?: readonly QueueItem[] }) {
  const [adding, setAdding] = useState(props.snapshot.workspaces.length === 0);
  const [added, setAdded] = useState<Added | null>(null);
  // Sign in with Slack first; a token is the second choice, for services without it.
  const [how, setHow] = useState<'slack' | 'token'>('slack');

  // A team's set-up link opens the sign-in form, filled in from it.
  const [offered] = useOfferedSetupLink();
  const seenLink = useRef<typeof offered>(null);
  if (offered && offered !== seenLink.current) {
    seenLink.current = offered;
    setAdding(true);
    setHow('slack');
  }
  const cancellable = props.snapshot.workspaces.length > 0;
  return (
    <section class="section" aria-labelledby="workspaces-title">
      <div class="section__header">
        <h2 id="workspaces-title" class="section__title">
          Workspaces
        </h2>
        {adding ? null : (
          <button
            type="button"
            id="ws-add"
            class="button button--small"
            onClick={() => {
              setHow('slack');
              setAdding(true);
            }}
          >
            Add workspace…
          </button>
        )}
      </div>
      {props.snapshot.workspaces.map((w) => (
        <WorkspaceCard
          key={w.id}
          workspace={w}
          added={added?.workspaceId === w.id ? added : null}
          presets={props.snapshot.presets.filter((p) => p.workspaceId === w.id).map((p) => p.name)}
          waiting={(props.queue ?? []).filter((i) => i.workspaceId === w.id && isActive(i))}
        />
      ))}
      {adding && how === 'slack' ? (
        <SignInWithSlack
          cancellable={cancellable}
          onCancel={() => setAdding(false)}
          onUseToken={() => setHow('token')}
          onSignedIn={(workspaceId) => {
            setAdding(false);
            setAdded({ workspaceId, check: null, protocolNote: '' });
          }}
        />
      ) : null}
      {adding && how === 'token' ? (
        <NewWorkspace
          cancellable={cancellable}
          onSignIn={() => setHow('slack')}
          onDone={(result) => {
            setAdding(false);
            if (result) setAdded(result);
          }}
        />
      ) : null}
    </section>
  );
}

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

function WorkspaceCard(props: {
  workspace: WorkspaceView;
  presets: readonly string[];
  /** Its uploads not finished yet (queued, waiting or sending). */
  waiting?: readonly QueueItem[];
  added?: Added | null;
}) {
  const w = props.workspace;
  const waiting = props.waiting ?? [];
  const prefix = `ws-${w.id}`;
  const [name, setName] = useState(w.name);
  const [baseUrl, setBaseUrl] = useState(w.baseUrl);
  const [protocol, setProtocol] = useState<Protocol>(w.protocol);
  const [token, setToken] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const [check, setCheck] = useState<ConnectionCheck | TokenSaved | null>(
    props.added?.check ?? null,
  );
  const [confirmReplace, setConfirmReplace] = useState(false);
  const keepAsked = useRef(false);
  if (!confirmReplace) keepAsked.current = false;
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
  const details = useAction();
  const secret = useAction();
  const test = useAction();
  const remove = useAction();

  const urlError = baseUrlError(baseUrl, true);
  const changed = name !== w.name || baseUrl !== w.baseUrl || protocol !== w.protocol;
  const tokenProblem = tokenError(token);

  const saveDetails = async (e: Event) => {
    e.preventDefault();
    if (urlError || name.trim() === '') return;
    const done = await details.run(() =>
      api().updateWorkspace(w.id, { name: name.trim(), baseUrl: baseUrl.trim(), protocol }),
    );
    if (done) setSaved('Saved.');
  };

  const saveToken = async (confirmed = false) => {
    if (token === '' || tokenProblem) return;
    // A saved token is replaced only when the person says so: the old one is gone for good.
    if (w.hasToken && !confirmed) {
      setConfirmReplace(true);
      return;
    }
    setConfirmReplace(false);
    setCheck(null);
    // A newer answer replaces the older ones: no refusal left beside "Connected as…".
    test.clear();
    const result = await secret.run(() => api().saveToken(w.id, token.trim()));
    if (!result) return;
    setCheck(result);
    if (result.saved) setToken('');
  };
  const tokenState = w.tokenRefused ? 'refused' : w.hasToken ? 'saved' : 'missing';

  return (
    <article class="card" aria-labelledby={`${prefix}-title`}>
      <h3 id={`${prefix}-title`} class="card__title">
        {w.name}
      </h3>
      <form class="card__form" onSubmit={saveDetails} noValidate>
        <div class="field-row">
          <TextField
            id={`${prefix}-name`}
            label="Name"
            value={name}
            onInput={(value) => {
              setName(value);
              setSaved(null);
            }}
          />
          <TextField
            id={`${prefix}-url`}
            label="Base URL"
            grow
            mono
            value={baseUrl}
            error={urlError}
            onInput={(value) => {
              setBaseUrl(value);
              setSaved(null);
            }}
          />
        </div>
        <div class="field-row">
          <div class="field">
            <label for={`${prefix}-protocol`} class="field__label">
              Protocol
            </label>
            <select
              id={`${prefix}-protocol`}
              class="input"
              value={protocol}
              onChange={(e) => {
                setProtocol(e.currentTarget.value as Protocol);
                setSaved(null);
              }}
            >
              {PROTOCOLS.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
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

      {signedIn ? <SignedInPanel workspace={w} waiting={waiting} /> : null}
      <div class="field" hidden={signedIn}>
        <label for={`${prefix}-token`} class="field__label">
          Token{' '}
          <span class={`token-state token-state--${tokenState}`}>
            {tokenState === 'refused'
              ? 'refused by the service'
              : tokenState === 'saved'
                ? 'saved'
                : 'not set'}
          </span>
        </label>
        <div class="inline">
          <input
            id={`${prefix}-token`}
            type="password"
            class={`input input--mono input--grow${tokenProblem ? ' input--invalid' : ''}`}
            value={token}
            // Short enough to read whole at 480 px beside its buttons.
            placeholder={w.hasToken ? 'New token…' : 'xoxb-…'}
            autocomplete="off"
            spellcheck={false}
            aria-invalid={tokenProblem !== null}
            aria-describedby={`${prefix}-token-help`}
            onInput={(e) => {
              setToken(e.currentTarget.value);
              setConfirmReplace(false);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void saveToken();
              }
            }}
          />
          <button
            type="button"
            class="button"
            disabled={token === '' || tokenProblem !== null || secret.busy || confirmReplace}
            onClick={() => void saveToken()}
          >
            {secret.busy ? 'Checking…' : w.hasToken ? 'Replace token' : 'Save token'}
          </button>
          {w.hasToken ? (
            <ConfirmButton
              label="Clear"
              ariaLabel={`Clear the token of ${w.name}`}
              question="Forget the saved token?"
              confirmLabel="Clear token"
              onConfirm={() => void secret.run(() => api().clearToken(w.id))}
            />
          ) : null}
        </div>
        <p id={`${prefix}-token-help`} class={tokenProblem ? 'field__error' : 'field__help'}>
          {tokenProblem ??
            'Checked with the service, then kept in the system keychain. It is never shown again, only replaced or cleared.'}
        </p>
        {confirmReplace ? (
          <fieldset
            class="confirm confirm--block"
            aria-label="Replace the token?"
            // Esc answers "Keep the old one", as in every other question.
            onKeyDown={(e) => {
              if (e.key !== 'Escape') return;
              e.preventDefault();
              e.stopPropagation();
              setConfirmReplace(false);
              document.getElementById(`${prefix}-token`)?.focus();
            }}
          >
            <span class="confirm__question">
              Replace the saved token of {w.name}? The old one is forgotten.
            </span>
            <button
              type="button"
              class="button"
              // Asked, focus is on the safe answer, as in every other question.
              ref={(el) => {
                if (el && !keepAsked.current) {
                  keepAsked.current = true;
                  el.focus();
                }
              }}
              onClick={() => {
                setConfirmReplace(false);
                document.getElementById(`${prefix}-token`)?.focus();
              }}
            >
              Keep the old one
            </button>
            <button
              type="button"
              class="button button--primary"
              onClick={() => void saveToken(true)}
            >
              Replace
            </button>
          </fieldset>
        ) : null}
        {w.tokenRefused && !check ? (
          <Notice tone="error">
            <ServiceWording
              inSettings
              message={`The service refused the saved token: ${w.tokenRefused.replace(/\s*Paste a new token for this workspace in Settings\.\s*$/, '')} Paste a new one above.`}
            />
          </Notice>
        ) : null}
        <ActionError error={secret.error} />
      </div>

      <div class="card__footer">
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

/** Says once who the token is for ("Connected as U0TEST in Acme."), or why not. */
function ConnectionResult(props: { check: ConnectionCheck | TokenSaved }) {
  const { check } = props;
  if (!check.checked) return <Notice tone="info">{check.message}</Notice>;
  if (!check.ok)
    return <Notice tone="error">{<ServiceWording message={check.message} inSettings />}</Notice>;
  const who = [check.user && `as ${check.user}`, check.team && `in ${check.team}`]
    .filter(Boolean)
    .join(' ');
  const saved = 'saved' in check ? ' Token saved.' : '';
  return <Notice tone="success">{`Connected${who ? ` ${who}` : ''}.${saved}`}</Notice>;
}

function NewWorkspace(props: {
  cancellable: boolean;
  onSignIn: () => void;
  onDone: (added?: Added) => void;
}) {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('https://slack.com');
  const [protocol, setProtocol] = useState<NewProtocol>('auto');
  const [token, setToken] = useState('');
  const [attempted, setAttempted] = useState(false);
  const action = useAction();
  const urlError = baseUrlError(baseUrl, attempted);
  const tokenProblem = tokenError(token);
  const nameError = attempted && name.trim() === '' ? 'Give the workspace a name.' : null;
  const [refused, setRefused] = useState<string | null>(null);

  const add = async (e: Event) => {
    e.preventDefault();
    setAttempted(true);
    if (name.trim() === '' || baseUrlError(baseUrl, true) || tokenProblem) return;
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
    } else if (done) props.onDone(done);
  };

  useLayoutEffect(() => {
    if (refused) document.getElementById('new-ws-token')?.focus();
  }, [refused]);

  return (
    <form class="card card--new" onSubmit={add} noValidate aria-labelledby="new-ws-title">
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
        <div class="field">
          <label for="new-ws-protocol" class="field__label">
            Protocol
          </label>
          <select
            id="new-ws-protocol"
            class="input"
            value={protocol}
            onChange={(e) => setProtocol(e.currentTarget.value as NewProtocol)}
          >
            {NEW_PROTOCOLS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
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
          error={tokenProblem ?? refused}
          onInput={(value) => {
            setToken(value);
            setRefused(null);
          }}
        />
      </div>
      <p class="field__help" id="new-ws-token-where">
        Where a token comes from: in Slack, api.slack.com/apps → your app → OAuth &amp; Permissions
        → Bot User OAuth Token (xoxb-…), with the files:write scope, and files:read for the links to
        what you share.
      </p>
      <ActionError error={action.error} />
      <div class="actions">
        {props.cancellable ? (
          <button type="button" class="button" onClick={() => props.onDone()}>
            Cancel
          </button>
        ) : null}
        <button type="button" class="button" onClick={props.onSignIn}>
          Sign in with Slack instead
        </button>
        <button type="submit" class="button button--primary" disabled={action.busy}>
          {action.busy ? 'Checking…' : 'Add workspace'}
        </button>
      </div>
    </form>
  );
}
