// The team admin's part of Sign in with Slack, done once for the whole team: create the Slack
// app from the manifest this repository ships (build/slack-app-manifest.json), paste its client
// ID back, and share a trayshare:// set-up link so everyone else only signs in. A client ID is
// public; the link carries it, the service address and a name, never a token.
import { useState } from 'preact/hooks';
import manifest from '../../../build/slack-app-manifest.json';
import { type SetupLink, setupLinkFor } from '../../../main/portable/setup-link';
import { api } from '../bridge';
import { offerSetupLink } from '../setup-link-store';
import { ActionError, Notice } from '../ui/notice';
import { TextField } from '../ui/text-field';
import { useAction } from '../use-action';

/**
 * Slack's "Create an app" page (https://docs.slack.dev/app-manifests/configuring-apps-with-app-manifests
 * links https://api.slack.com/apps?new_app=1) opened on "From a manifest" with ours filled in by
 * `manifest_json`, the parameter Slack's page reads; the admin picks the workspace and creates it.
 */
export const CREATE_SLACK_APP_URL = `https://api.slack.com/apps?new_app=1&manifest_json=${encodeURIComponent(JSON.stringify(manifest))}`;

export function CreateSlackApp() {
  const open = useAction();
  return (
    <div class="field">
      <p class="field__help">
        Your team needs one Slack app for Trayshare. Ask whoever looks after your Slack for
        Trayshare's set-up link; or, if that is you, create the app (it asks for nothing but your
        own files and channel lists), then paste its Client ID from Basic Information → App
        Credentials below.
      </p>
      <div class="inline">
        <button
          type="button"
          class="button"
          onClick={() => void open.run(() => api().openExternal(CREATE_SLACK_APP_URL))}
        >
          Create the Slack app for my team
        </button>
      </div>
      <ActionError error={open.error} />
    </div>
  );
}

export function CopySetupLink(props: { link: SetupLink }) {
  const copy = useAction();
  const [copied, setCopied] = useState<string | null>(null);
  const link = setupLinkFor(props.link);
  if (copied !== null && copied !== link) setCopied(null);
  return (
    <div class="field">
      <div class="inline">
        <button
          type="button"
          class="button"
          onClick={async () => {
            const done = await copy.run(async () => {
              await api().copyText(link);
              return true;
            });
            if (done) setCopied(link);
          }}
        >
          Copy set-up link for your team
        </button>
      </div>
      {copied ? (
        <Notice tone="success">
          Set-up link copied. Send it to your team: opening it in Trayshare fills this in, so they
          only sign in. It holds no token.
        </Notice>
      ) : null}
      <ActionError error={copy.error} />
    </div>
  );
}

/**
 * A set-up link pasted rather than opened: where the desktop does not hand trayshare: links to
 * the app, the link still works. Main checks it as one from the OS; a good one fills the form.
 */
export function PasteSetupLink() {
  const [text, setText] = useState('');
  const read = useAction();
  const use = async () => {
    if (text.trim() === '') return;
    const link = await read.run(() => api().readSetupLink(text));
    if (!link) return;
    setText('');
    offerSetupLink(link);
  };
  return (
    <div class="field-row">
      <TextField
        id="sign-in-setup-link"
        label="Set-up link from your team"
        grow
        mono
        value={text}
        placeholder="trayshare://setup?…"
        error={read.error}
        onEnter={() => void use()}
        onInput={(value) => {
          setText(value);
          read.clear();
        }}
      />
      <div class="field field--end">
        <button
          type="button"
          class="button"
          disabled={text.trim() === ''}
          onClick={() => void use()}
        >
          Use link
        </button>
      </div>
    </div>
  );
}
