import type { QueueItem, Snapshot, View } from '../../../preload/contract';
import { listChannels } from '../format';
import { activeCount } from '../queue-state';
import { Notice } from '../ui/notice';

export function DropView(props: {
  snapshot: Snapshot;
  queue: QueueItem[];
  error: string | null;
  /** Said once after a share from the small drop window, which shows no queue. */
  confirmation?: string | null;
  compact: boolean;
  onPick: () => void;
  onShow: (view: View) => void;
}) {
  const { snapshot } = props;
  const preset = snapshot.presets.find((p) => p.id === snapshot.defaultPresetId);
  const active = activeCount(props.queue);
  const noWorkspace = snapshot.workspaces.length === 0;
  return (
    <section class="view view--drop" aria-labelledby="drop-title">
      <h1 id="drop-title" class={props.compact ? 'visually-hidden' : 'view__title'} tabIndex={-1}>
        Drop files
      </h1>
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
      {props.error ? <Notice tone="error">{props.error}</Notice> : null}
      {props.confirmation ? <Notice tone="success">{props.confirmation}</Notice> : null}
      {noWorkspace ? (
        <Notice tone="warning">
          No workspace is set up yet.{' '}
          <button type="button" class="link" onClick={() => props.onShow('settings')}>
            Add one in Settings
          </button>
        </Notice>
      ) : null}
      {props.compact ? null : (
        <dl class="facts">
          <div class="facts__row">
            <dt>Default preset</dt>
            <dd>
              {preset ? (
                `${preset.name} → ${listChannels(preset.channels, 3)}`
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
                {active === 0
                  ? 'Nothing in progress'
                  : `${active} ${active === 1 ? 'upload' : 'uploads'} in progress`}
              </button>
              {snapshot.paused ? ' (paused)' : ''}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
