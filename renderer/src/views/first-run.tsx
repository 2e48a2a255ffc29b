// The way through an empty app: add a workspace, check its token, make a preset. Shown in
// Settings until a preset exists, and instead of the share sheet when files arrive before any
// workspace does, so those files wait for the setup rather than dead-end.
import type { Snapshot, View } from '../../../preload/contract';
import { countFiles } from '../format';
import { WorkspacesSection } from './workspaces-section';

export function SetupSteps(props: { snapshot: Snapshot; onShow: (view: View) => void }) {
  const { workspaces, presets } = props.snapshot;
  const steps = [
    {
      title: 'Add a workspace',
      detail: 'Sign in with Slack, or give the service address and a token.',
      done: workspaces.length > 0,
    },
    {
      title: 'Check its token',
      detail: 'Signing in checks it; a pasted token is checked when saved.',
      // A sign-in that ran out is no more a working token than a refused one.
      done: workspaces.some((w) => w.hasToken && !w.tokenRefused && !w.signedIn?.expired),
    },
    {
      title: 'Make a preset',
      detail: 'A name for the channels you share to most.',
      done: presets.length > 0,
    },
  ];
  const current = steps.findIndex((s) => !s.done);
  return (
    <section class="card setup" aria-labelledby="setup-title">
      <h2 id="setup-title" class="card__title">
        Getting started
      </h2>
      <ol class="setup__steps">
        {steps.map((step, i) => (
          <li
            key={step.title}
            class={`setup__step${step.done ? ' setup__step--done' : ''}`}
            aria-current={i === current ? 'step' : undefined}
          >
            <strong>{step.title}</strong>
            {step.done ? ' (done)' : null}
            <span class="muted"> {step.detail}</span>
          </li>
        ))}
      </ol>
      {/* On to a preset only once the token is known good: a refused one is not a finished step. */}
      {steps[1]!.done && !steps[2]!.done ? (
        <button
          type="button"
          class="button button--primary"
          onClick={() => props.onShow('presets')}
        >
          Make a preset
        </button>
      ) : null}
    </section>
  );
}

/** Files arrived (a drop, the file manager, a paste) before any workspace exists. */
export function FirstRunView(props: {
  snapshot: Snapshot;
  paths: string[];
  onShow: (view: View) => void;
}) {
  return (
    <section class="view" aria-labelledby="first-run-title">
      <header class="view__header">
        <h1 id="first-run-title" class="view__title" tabIndex={-1}>
          Set up a workspace first
        </h1>
      </header>
      <p class="muted">
        {countFiles(props.paths.length)} will wait here. Sign in with Slack (or add a workspace with
        a token); the share sheet opens as soon as it is ready.
      </p>
      <SetupSteps snapshot={props.snapshot} onShow={props.onShow} />
      <WorkspacesSection snapshot={props.snapshot} />
    </section>
  );
}
