// Small line icons drawn inline, in the text's colour and size. Emoji were used before, and
// show as empty boxes on a desktop without an emoji font (many Linux installs); an inline SVG
// draws the same everywhere and needs no font or file. Decorative: the text beside each icon
// says what it means, so every icon is hidden from assistive technology.

const PATHS = {
  /** A private channel. */
  lock: 'M4.5 7V5a3.5 3.5 0 0 1 7 0v2M3.5 7h9v6.5h-9z',
  /** A person (a direct message). */
  person: 'M8 8a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM3 14c0-2.8 2.2-4.5 5-4.5s5 1.7 5 4.5',
  /** Several people (a group direct message). */
  people:
    'M6 7.5a2.2 2.2 0 1 0 0-4.4 2.2 2.2 0 0 0 0 4.4zM1.5 13.5c0-2.5 2-4 4.5-4s4.5 1.5 4.5 4M11 3.3a2.2 2.2 0 0 1 0 4.2M12.5 9.8c1.3.5 2 1.8 2 3.7',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon(props: { name: IconName; class?: string }) {
  return (
    <svg
      class={`icon${props.class ? ` ${props.class}` : ''}`}
      viewBox="0 0 16 16"
      width="1em"
      height="1em"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d={PATHS[props.name]}
        fill="none"
        stroke="currentColor"
        stroke-width="1.5"
        stroke-linecap="round"
        stroke-linejoin="round"
      />
    </svg>
  );
}
