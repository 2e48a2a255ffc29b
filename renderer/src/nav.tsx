import type { QueueItem, View } from '../../preload/contract';
import { activeCount, needsAttention } from './queue-state';

interface Entry {
  view: View;
  label: string;
  /** Words the narrow top bar hides visually; the button's accessible name keeps them. */
  more?: string;
}

const ENTRIES: Entry[] = [
  { view: 'drop', label: 'Drop', more: ' files' },
  { view: 'queue', label: 'Queue' },
  { view: 'history', label: 'History' },
  { view: 'presets', label: 'Presets' },
  { view: 'settings', label: 'Settings' },
];

export function Nav(props: {
  view: View;
  queue: QueueItem[];
  hasPaths: boolean;
  onShow: (view: View) => void;
}) {
  const active = activeCount(props.queue);
  const attention = needsAttention(props.queue);
  const entries = props.hasPaths
    ? [ENTRIES[0]!, { view: 'share' as const, label: 'Share', more: ' sheet' }, ...ENTRIES.slice(1)]
    : ENTRIES;
  return (
    <nav class="nav" aria-label="Sections">
      <div class="nav__brand" aria-hidden="true">
        {/* The app icon's mark (build/scripts/make-icons.mjs draws the same shapes). */}
        <svg class="nav__logo" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <rect width="16" height="16" rx="3" />
          <path d="M3 8h2v3h6V8h2v5H3zM8 2l4 4H9v4H7V6H4z" />
        </svg>
        Trayshare
      </div>
      <ul class="nav__list">
        {entries.map((entry) => {
          const current = props.view === entry.view;
          const badge = entry.view === 'queue' && active > 0 ? active : null;
          const dot = entry.view === 'queue' && attention;
          const extra = [badge === null ? '' : `${badge} in progress`, dot ? 'needs attention' : '']
            .filter(Boolean)
            .join(', ');
          return (
            <li key={entry.view}>
              <button
                type="button"
                class={`nav__item${current ? ' nav__item--current' : ''}`}
                aria-current={current ? 'page' : undefined}
                onClick={() => props.onShow(entry.view)}
              >
                <span class="nav__label">
                  {entry.label}
                  {entry.more ? <span class="nav__short">{entry.more}</span> : null}
                </span>
                {badge === null ? null : (
                  <span class="nav__badge" aria-hidden="true">
                    {badge}
                  </span>
                )}
                {dot ? <span class="nav__dot" /> : null}
                {extra ? <span class="visually-hidden">, {extra}</span> : null}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
