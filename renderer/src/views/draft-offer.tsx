// The earlier draft, offered at the top of a new share sheet: its files can be added to this
// share, or the draft let go. Nothing of it is in the share until the person says so.
import { countFiles } from '../format';
import type { KeptDraft } from '../kept-draft';
import { Notice } from '../ui/notice';

export function DraftOffer(props: {
  offered: KeptDraft | null;
  onTake: () => void;
  onDrop: () => void;
}) {
  const { offered } = props;
  if (!offered) return null;
  const minutes = Math.max(1, Math.round((Date.now() - offered.at) / 60_000));
  const files = countFiles(offered.paths.length);
  return (
    <Notice tone="info">
      {`An earlier draft of ${files}, kept ${minutes === 1 ? 'a minute' : `${minutes} minutes`} ago, is not in this share. `}
      <span class="inline">
        <button type="button" class="button button--small" onClick={props.onTake}>
          {`Add its ${files}`}
        </button>
        <button type="button" class="button button--small" onClick={props.onDrop}>
          Discard the draft
        </button>
      </span>
    </Notice>
  );
}
