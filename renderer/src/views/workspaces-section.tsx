import { useState } from 'preact/hooks';
import { checkBaseUrl, checkToken } from '../../../main/core/upload/credentials';
import type { ConnectionCheck, Protocol, Snapshot, WorkspaceView } from '../../../preload/contract';
import { api } from '../bridge';
import { ConfirmButton } from '../ui/confirm-button';
import { ActionError, Notice } from '../ui/notice';
import { TextField } from '../ui/text-field';
import { useAction } from '../use-action';

const PROTOCOLS: { value: Protocol; label: string }[] = [
  { value: 'files.upload', label: 'files.upload (one request)' },
  { value: 'external', label: 'External upload (Slack, current)' },
];

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

export function WorkspacesSection(props: { snapshot: Snapshot }) {
  const [adding, setAdding] = useState(props.snapshot.workspaces.length === 0);
  return (
    <section class="section" aria-labelledby="workspaces-title">
      <div class="section__header">
        <h2 id="workspaces-title" class="section__title">
          Workspaces
        </h2>
        {adding ? null : (
          <button type="button" class="button button--small" onClick={() => setAdding(true)}>
            Add workspace…
          </button>
        )}
      </div>
      {props.snapshot.workspaces.map((w) => (
        <WorkspaceCard
          key={w.id}
          workspace={w}
          presets={props.snapshot.presets.filter((p) => p.workspaceId === w.id).map((p) => p.name)}
        />
      ))}
      {adding ? (
        <NewWorkspace
          cancellable={props.snapshot.workspaces.length > 0}
          onDone={() => setAdding(false)}
        />
      ) : null}
    </section>
  );
}

/** "Remove Acme, its token and its 2 presets (Design review, Random)?" */
function removalQuestion(name: string, presets: readonly string[]): string {
  if (presets.length === 0) return `Remove ${name} and its token?`;
  const which =
    presets.length === 1
      ? `preset “${presets[0]}”`
      : `${presets.length} presets (${presets.map((p) => `“${p}”`).join(', ')})`;
  return `Remove ${name}, its token and its ${which}?`;
}

function WorkspaceCard(props: { workspace: WorkspaceView; presets: readonly string[] }) {
  const w = props.workspace;
  const prefix = `ws-${w.id}`;
  const [name, setName] = useState(w.name);
  const [baseUrl, setBaseUrl] = useState(w.baseUrl);
  const [protocol, setProtocol] = useState<Protocol>(w.protocol);
  const [token, setToken] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const [check, setCheck] = useState<ConnectionCheck | null>(null);
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

  const saveToken = async () => {
    if (token === '' || tokenProblem) return;
    const done = await secret.run(async () => {
      await api().setToken(w.id, token.trim());
      return true;
    });
    if (done) {
      setToken('');
      setCheck(null);
    }
  };

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

      <div class="field">
        <label for={`${prefix}-token`} class="field__label">
          Token{' '}
          <span class={`token-state token-state--${w.hasToken ? 'saved' : 'missing'}`}>
            {w.hasToken ? 'saved' : 'not set'}
          </span>
        </label>
        <div class="inline">
          <input
            id={`${prefix}-token`}
            type="password"
            class={`input input--mono input--grow${tokenProblem ? ' input--invalid' : ''}`}
            value={token}
            placeholder={w.hasToken ? 'Paste a new token to replace it' : 'xoxb-…'}
            autocomplete="off"
            spellcheck={false}
            aria-invalid={tokenProblem !== null}
            aria-describedby={`${prefix}-token-help`}
            onInput={(e) => setToken(e.currentTarget.value)}
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
            disabled={token === '' || tokenProblem !== null || secret.busy}
            onClick={() => void saveToken()}
          >
            Save token
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
            'Kept in the system keychain. It is never shown again, only replaced or cleared.'}
        </p>
        <ActionError error={secret.error} />
      </div>

      <div class="card__footer">
        <button
          type="button"
          class="button"
          disabled={test.busy || !w.hasToken}
          onClick={async () => {
            setCheck(null);
            const result = await test.run(() => api().testConnection(w.id));
            if (result) setCheck(result);
          }}
        >
          {test.busy ? 'Testing…' : 'Test connection'}
        </button>
        <ConfirmButton
          label="Remove workspace"
          ariaLabel={`Remove workspace ${w.name}`}
          question={removalQuestion(w.name, props.presets)}
          confirmLabel="Remove"
          onConfirm={() => void remove.run(() => api().removeWorkspace(w.id))}
        />
      </div>
      {check ? <ConnectionResult check={check} /> : null}
      <ActionError error={test.error} />
      <ActionError error={remove.error} />
    </article>
  );
}

function ConnectionResult(props: { check: ConnectionCheck }) {
  const { check } = props;
  if (!check.checked) return <Notice tone="info">{check.message}</Notice>;
  if (!check.ok) return <Notice tone="error">{check.message}</Notice>;
  const who = [check.user && `as ${check.user}`, check.team && `in ${check.team}`]
    .filter(Boolean)
    .join(' ');
  return (
    <Notice tone="success">{who ? `Connected ${who}. ${check.message}` : check.message}</Notice>
  );
}

function NewWorkspace(props: { cancellable: boolean; onDone: () => void }) {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('https://slack.com');
  const [protocol, setProtocol] = useState<Protocol>('files.upload');
  const [token, setToken] = useState('');
  const [attempted, setAttempted] = useState(false);
  const action = useAction();
  const urlError = baseUrlError(baseUrl, attempted);
  const tokenProblem = tokenError(token);
  const nameError = attempted && name.trim() === '' ? 'Give the workspace a name.' : null;

  const add = async (e: Event) => {
    e.preventDefault();
    setAttempted(true);
    if (name.trim() === '' || baseUrlError(baseUrl, true) || tokenProblem) return;
    const done = await action.run(async () => {
      const created = await api().addWorkspace({
        name: name.trim(),
        baseUrl: baseUrl.trim(),
        protocol,
      });
      if (token !== '') await api().setToken(created.id, token.trim());
      return created;
    });
    if (done) props.onDone();
  };

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
            onChange={(e) => setProtocol(e.currentTarget.value as Protocol)}
          >
            {PROTOCOLS.map((p) => (
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
          error={tokenProblem}
          onInput={setToken}
        />
      </div>
      <ActionError error={action.error} />
      <div class="actions">
        {props.cancellable ? (
          <button type="button" class="button" onClick={props.onDone}>
            Cancel
          </button>
        ) : null}
        <button type="submit" class="button button--primary" disabled={action.busy}>
          Add workspace
        </button>
      </div>
    </form>
  );
}
