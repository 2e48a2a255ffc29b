// Settings' list of workspaces: a card for each, and the form that adds one (Sign in with Slack
// first, a token for services without it). A team's set-up link opens that form, filled in.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { QueueItem, Snapshot } from '../../../preload/contract';
import { isActive } from '../queue-state';
import { useOfferedSetupLink } from '../setup-link-store';
import { NewWorkspace } from './new-workspace';
import { SignInWithSlack } from './slack-sign-in';
import { WorkspaceCard } from './workspace-card';
import type { Added } from './workspace-fields';

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

  // "Add workspace…" goes away once pressed, and "Use a token" / "Sign in with Slack instead"
  // swap one form for the other: the keyboard goes to the new form's first control. Left to
  // itself, focus would land on the next control after the gone button, the first card's Name,
  // and typing would rename that workspace.
  const sectionRef = useRef<HTMLElement>(null);
  const focusForm = useRef(false);
  const open = (next: 'slack' | 'token') => {
    focusForm.current = true;
    setHow(next);
    setAdding(true);
  };
  useLayoutEffect(() => {
    if (!focusForm.current || !adding) return;
    focusForm.current = false;
    const controls = sectionRef.current?.querySelectorAll<HTMLElement>(
      '.card--new :is(input:not([type="hidden"]), select, textarea, button, summary)',
    );
    // Not one folded away in a closed disclosure: it takes no focus.
    [...(controls ?? [])].find((el) => el.getClientRects().length > 0)?.focus();
  }, [adding, how]);

  return (
    <section class="section" aria-labelledby="workspaces-title" ref={sectionRef}>
      <div class="section__header">
        <h2 id="workspaces-title" class="section__title">
          Workspaces
        </h2>
        {adding ? null : (
          <button
            type="button"
            id="ws-add"
            class="button button--small"
            onClick={() => open('slack')}
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
          onUseToken={() => open('token')}
          onSignedIn={(workspaceId) => {
            setAdding(false);
            setAdded({ workspaceId, check: null, protocolNote: '' });
          }}
        />
      ) : null}
      {adding && how === 'token' ? (
        <NewWorkspace
          cancellable={cancellable}
          onSignIn={() => open('slack')}
          onDone={(result) => {
            setAdding(false);
            if (result) setAdded(result);
          }}
        />
      ) : null}
    </section>
  );
}
