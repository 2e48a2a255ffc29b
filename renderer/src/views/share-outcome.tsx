// After Share, when the core refused some paths: what was queued and why the rest was not, so
// nothing the person dropped is lost without a word.

import { METADATA_UNREADABLE } from '../../../main/portable/metadata-refusal';
import type { ShareResult, View } from '../../../preload/contract';
import { baseName, countFiles } from '../format';
import { Notice } from '../ui/notice';

export function ShareOutcome(props: {
  result: ShareResult;
  onClose: (next: View) => void;
  /** Sends the files refused as damaged photos or videos as they are, details and all. */
  onSendKeeping: () => void;
  busy: boolean;
}) {
  const { result } = props;
  const queued = result.items.length;
  // The person is told why and chooses: send these as they are (location included), or not.
  const damaged = result.refused.filter((r) => r.code === METADATA_UNREADABLE).length;
  return (
    <section class="view" aria-labelledby="outcome-title">
      <header class="view__header">
        <h1 id="outcome-title" class="view__title" tabIndex={-1}>
          {queued === 0 ? 'Nothing was queued' : `${countFiles(queued)} queued`}
        </h1>
      </header>
      <Notice tone={queued === 0 ? 'error' : 'warning'}>
        {result.refused.length === 1
          ? 'One path was not queued:'
          : `${result.refused.length} paths were not queued:`}
        <ul class="refused">
          {result.refused.map((r) => (
            <li key={r.path}>
              <span class="refused__name">{baseName(r.path)}</span>: {r.reason}
              <span class="refused__path">{r.path}</span>
            </li>
          ))}
        </ul>
      </Notice>
      <div class="actions">
        <button type="button" class="button" onClick={() => props.onClose('drop')}>
          Done
        </button>
        {damaged > 0 ? (
          <button type="button" class="button" disabled={props.busy} onClick={props.onSendKeeping}>
            {damaged === 1 ? 'Send it as it is' : `Send these ${damaged} as they are`}
          </button>
        ) : null}
        {queued > 0 ? (
          <button
            type="button"
            class="button button--primary"
            onClick={() => props.onClose('queue')}
          >
            Show queue
          </button>
        ) : null}
      </div>
    </section>
  );
}
