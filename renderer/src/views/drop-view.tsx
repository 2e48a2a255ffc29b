// The first view: the drop target, and beside it (in the full window) the default preset, the
// queue and the last few shares, so a person sees where a drop goes before making it.
import { useEffect, useState } from 'preact/hooks';
import type { HistoryEntry, QueueItem, Snapshot, View } from '../../../preload/contract';
import { api } from '../bridge';
import { useDestinationLabels, useNamedRefs } from '../channel-names';
import { channelIds, channelName, countFiles, formatTime } from '../format';
import { groupHistory } from '../history-groups';
import { attentionSummary, isActive, isHeld } from '../queue-state';
import { Notice } from '../ui/notice';
import { DestinationList } from '../ui/person-icon';

export function DropView(props: {
  snapshot: Snapshot;
  queue: QueueItem[];
  error: string | null;
  /** Said once after a share from the small drop window, which shows no queue. */
  confirmation?: string | null;
  compact: boolean;
  /** Bumped when history changes, so the recent uploads beside the target stay current. */
  historyVersion: number;
  onPick: () => void;
  onShow: (view: View) => void;
}) {
  const { snapshot } = props;
  const noWorkspace = snapshot.workspaces.length === 0;
  return (
    <section class="view view--drop" aria-labelledby="drop-title">
      <h1 id="drop-title" class={props.compact ? 'visually-hidden' : 'view__title'} tabIndex={-1}>
        Drop files
      </h1>
      {/* First, above the target: without a workspace nothing can be shared yet. */}
      {noWorkspace ? (
        <Notice tone="warning">
          No workspace is set up yet.{' '}
          <button type="button" class="link" onClick={() => props.onShow('settings')}>
            Add one in Settings
          </button>
        </Notice>
      ) : null}
      <div class="drop-layout">
        <DropTarget onPick={props.onPick} />
        {props.compact ? null : (
          <div class="drop-side">
            <DropFacts
              snapshot={snapshot}
              queue={props.queue}
              noWorkspace={noWorkspace}
              onShow={props.onShow}
            />
            <RecentUploads version={props.historyVersion} onShow={props.onShow} />
          </div>
        )}
      </div>
      {props.error ? <Notice tone="error">{props.error}</Notice> : null}
      {props.confirmation ? <Notice tone="success">{props.confirmation}</Notice> : null}
    </section>
  );
}

/** The target itself, and the button for those who would rather pick than drag. */
function DropTarget(props: { onPick: () => void }) {
  return (
    <div class="dropzone">
      <svg class="dropzone__icon" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
        <path d="M24 6v22m0 0-8-8m8 8 8-8" />
        <path d="M8 28v8a4 4 0 0 0 4 4h24a4 4 0 0 0 4-4v-8" />
      </svg>
      <p class="dropzone__title">Drop files or folders here</p>
      <p class="dropzone__hint">You choose where they go before anything is sent.</p>
      <button type="button" class="button button--primary" onClick={props.onPick}>
        Choose files…
      </button>
    </div>
  );
}

/** The default preset and the queue at a glance, each a way to where it is changed. */
function DropFacts(props: {
  snapshot: Snapshot;
  queue: QueueItem[];
  noWorkspace: boolean;
  onShow: (view: View) => void;
}) {
  const { snapshot, noWorkspace } = props;
  const named = useNamedRefs();
  const preset = snapshot.presets.find((p) => p.id === snapshot.defaultPresetId);
  // A file on hold is said with what needs attention, not as in progress as well.
  const active = props.queue.filter((i) => isActive(i) && !isHeld(i)).length;
  const attention = attentionSummary(props.queue);
  return (
    <dl class="facts">
      <div class="facts__row">
        <dt>Default preset</dt>
        <dd>
          {preset ? (
            <span title={channelIds(preset.channels)}>
              {`${preset.name} → `}
              <DestinationList
                labels={named(preset.workspaceId, preset.channels).map(channelName)}
                max={3}
              />
            </span>
          ) : noWorkspace ? (
            'None yet'
          ) : (
            <button type="button" class="link" onClick={() => props.onShow('presets')}>
              None: choose one in Presets
            </button>
          )}
        </dd>
      </div>
      <div class="facts__row">
        <dt>Queue</dt>
        <dd>
          <button type="button" class="link" onClick={() => props.onShow('queue')}>
            {/* What the navigation's red dot is for, said here too: never "Nothing in
                progress" alone while something waits for the person. */}
            {[
              active === 0 && attention
                ? ''
                : active === 0
                  ? 'Nothing in progress'
                  : `${active} ${active === 1 ? 'upload' : 'uploads'} in progress`,
              attention,
            ]
              .filter(Boolean)
              .join('; ')}
          </button>
          {snapshot.paused ? ' (paused)' : ''}
        </dd>
      </div>
    </dl>
  );
}

const RECENT = 4;
/** Enough entries for four shares of a usual size. */
const RECENT_ENTRIES = 100;

const NOT_DELIVERED: Record<Exclude<HistoryEntry['outcome'], 'delivered'>, string> = {
  failed: 'failed',
  unknown: 'may have been delivered',
  cancelled: 'cancelled',
};

/** The last few shares, beside the drop target: what was just sent, and where. */
function RecentUploads(props: { version: number; onShow: (view: View) => void }) {
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const labels = useDestinationLabels();
  useEffect(() => {
    let current = true;
    // A courtesy: when history cannot be read, History itself says why.
    api()
      .listHistory({ limit: RECENT_ENTRIES })
      .then(
        (found) => current && setEntries(found),
        () => current && setEntries([]),
      );
    return () => {
      current = false;
    };
  }, [props.version]);
  if (entries === null) return null;
  // One line a share: a share of twelve files is one thing sent, not twelve.
  const shares = groupHistory(entries).slice(0, RECENT);
  return (
    <section class="recent" aria-labelledby="recent-title">
      <h2 id="recent-title" class="recent__title">
        Recent uploads
      </h2>
      {shares.length === 0 ? (
        <p class="muted recent__empty">Nothing shared yet.</p>
      ) : (
        <ul class="recent__list">
          {shares.map((share) => {
            const first = share.entries[0]!;
            const several = share.entries.length > 1;
            const outcome = share.outcome;
            const destinations = labels(first.workspaceId, first.channels, first.labels);
            return (
              <li key={share.id} class="recent__item">
                <span
                  class="recent__name"
                  title={several ? share.entries.map((e) => e.name).join(', ') : first.name}
                >
                  {several ? `${countFiles(share.entries.length)}: ${first.name}, …` : first.name}
                </span>
                <span class="recent__detail" title={destinations.join(', ')}>
                  <span class="recent__where">
                    {`${formatTime(first.at)} → `}
                    <DestinationList labels={destinations} max={3} />
                  </span>
                  {outcome === 'delivered' ? null : (
                    <span class="recent__outcome">
                      {outcome
                        ? ` · ${NOT_DELIVERED[outcome]}`
                        : ` · ${share.entries.filter((e) => e.outcome === 'delivered').length} of ${share.entries.length} delivered`}
                    </span>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <button type="button" class="link" onClick={() => props.onShow('history')}>
        All uploads in History
      </button>
    </section>
  );
}
