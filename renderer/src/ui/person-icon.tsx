// People are marked with this icon wherever a destination is shown (the picker, chips, the share
// summary, presets, queue and history rows): an inline SVG that takes the text colour, so it
// reads the same in light and dark and on every platform, unlike an emoji.
import { Fragment } from 'preact';
export function PersonIcon() {
  return (
    <svg class="person-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="5" r="3" />
      <path d="M2.5 14.5c0-3 2.5-5 5.5-5s5.5 2 5.5 5z" />
    </svg>
  );
}

/** One destination as read: `@alice` with the person icon, `#general` as it is. */
export function DestinationName(props: { label: string }) {
  if (!props.label.startsWith('@')) return <>{props.label}</>;
  return (
    <span class="person-name">
      <PersonIcon />
      {props.label}
    </span>
  );
}

/** "#design-review, @alice and 2 more", the people with their icon; text as listChannels gives. */
export function DestinationList(props: { labels: readonly string[]; max: number }) {
  const shown = props.labels.slice(0, props.max);
  const more = props.labels.length - shown.length;
  return (
    <>
      {shown.map((label, i) => (
        <Fragment key={`${i}:${label}`}>
          {i > 0 ? ', ' : null}
          <DestinationName label={label} />
        </Fragment>
      ))}
      {more > 0 ? ` and ${more} more` : null}
    </>
  );
}
