// "Change destination" for a share some channels refused: the sheet again, with the same files
// and comment and the channels that did not refuse, so the person only fixes where it goes.
// Still in the queue, the same items go elsewhere (one share, one history row each); once
// cleared from the queue, the files go as a new share.
import { useRef, useState } from 'preact/hooks';
import type { ChannelRef, Snapshot, View } from '../../../preload/contract';
import { api } from '../bridge';
import { useDestination, useNamedRefs } from '../channel-names';
import { baseName, countFiles } from '../format';
import type { Redirect } from '../redirect';
import { signedIn, tokenState } from '../token-state';
import { ChannelPicker } from '../ui/channel-picker';
import { ActionError, Notice } from '../ui/notice';
import { useEscape } from '../ui/use-escape';
import { useAction } from '../use-action';

export function ChangeDestination(props: {
  snapshot: Snapshot;
  redirect: Redirect;
  onClose: (next: View) => void;
}) {
  const { redirect } = props;
  const named = useNamedRefs();
  const destination = useDestination();
  const workspace = props.snapshot.workspaces.find((w) => w.id === redirect.workspaceId);
  const [picked, setPicked] = useState<ChannelRef[]>(() =>
    named(
      redirect.workspaceId,
      redirect.channels.map((id) => ({ id })),
    ),
  );
  const [attempted, setAttempted] = useState(false);
  const action = useAction();
  const problem = redirectProblem(picked.length, redirect.threadTs);

  const send = async (e: Event) => {
    e.preventDefault();
    setAttempted(true);
    if (problem) return;
    const channels = picked.map((c) => c.id);
    const done = await action.run(() => sendElsewhere(redirect, channels));
    if (done) props.onClose('queue');
  };

  // Esc leaves it as Cancel does, to where it was opened from: nothing is sent, the failed
  // share stays where it was.
  const from = useRef(redirect.from).current;
  useEscape(() => props.onClose(from), action.busy);

  return (
    <section class="view" aria-labelledby="redirect-title">
      <header class="view__header">
        <h1 id="redirect-title" class="view__title" tabIndex={-1}>
          Change destination
        </h1>
      </header>
      <form class="sheet sheet--redirect" onSubmit={send} noValidate>
        <p class="muted">
          {`${destination(redirect.workspaceId, redirect.refused, { saved: redirect.labels })} refused ${countFiles(redirect.paths.length)}. Choose where ${redirect.paths.length === 1 ? 'it goes' : 'they go'} instead.`}
        </p>
        <RedirectFiles paths={redirect.paths} comment={redirect.comment} />
        <fieldset class="group">
          <legend class="group__label">Send to</legend>
          <ChannelPicker
            id="redirect-channels"
            label="Channels"
            workspaceId={redirect.workspaceId}
            tokenState={tokenState(workspace)}
            signedIn={signedIn(workspace)}
            selected={picked}
            invalid={attempted && picked.length === 0}
            onAdd={(ref) => setPicked((now) => [...now, ref])}
            onRemove={(id) => setPicked((now) => now.filter((c) => c.id !== id))}
          />
        </fieldset>
        <div class="sheet__footer">
          {attempted && problem ? <Notice tone="error">{problem}</Notice> : null}
          <ActionError error={action.error} />
          <div class="actions">
            <button type="button" class="button" onClick={() => props.onClose(redirect.from)}>
              Cancel
            </button>
            <button type="submit" class="button button--primary" disabled={action.busy}>
              {action.busy ? 'Sending…' : 'Send'}
            </button>
          </div>
        </div>
      </form>
    </section>
  );
}

function redirectProblem(picked: number, threadTs: Redirect['threadTs']): string | null {
  if (picked === 0) return 'Choose at least one channel.';
  if (threadTs && picked > 1) return 'A reply in a thread goes to one channel: keep just one.';
  return null;
}

/**
 * The failed item, still in the queue, goes to the new channels; gone from it, its files go as
 * a new share.
 */
async function sendElsewhere(redirect: Redirect, channels: string[]): Promise<true> {
  const item = (await api().listQueue()).find((i) => i.id === redirect.itemId);
  if (item?.state === 'failed') {
    await api().changeDestination(item.id, channels);
    return true;
  }
  // Gone from the queue (cleared) or sent again meanwhile: never the same item twice.
  if (item) throw new Error('This upload was sent again meanwhile; see the queue.');
  const shared = await api().share({
    target: { workspaceId: redirect.workspaceId, channels },
    comment: redirect.comment === '' ? undefined : redirect.comment,
    paths: redirect.paths,
  });
  const refused = shared.refused[0];
  if (refused) throw new Error(`Not queued: ${baseName(refused.path)}: ${refused.reason}`);
  return true;
}

function RedirectFiles(props: { paths: string[]; comment: string }) {
  return (
    <fieldset class="group group--files">
      <legend class="group__label">Files</legend>
      <ul class="file-list" aria-label="Files to send">
        {props.paths.map((path) => (
          <li key={path} class="file-list__item">
            <span class="file-list__name">{baseName(path)}</span>
          </li>
        ))}
      </ul>
      {props.comment ? <p class="item__comment">“{props.comment}”</p> : null}
    </fieldset>
  );
}
