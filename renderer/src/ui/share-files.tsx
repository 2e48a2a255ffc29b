// The files of a share, folded under its row in the queue and in History: long shares start
// folded so thirty files do not push everything else off screen.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export function ShareFiles(props: {
  /** The list's id, for the button's aria-controls. */
  id: string;
  /** The share row's title: the list is "Files of <title>". */
  title: string;
  count: number;
  /** The share's first file: shares to the same place have the same title. */
  firstName: string;
  initiallyOpen: boolean;
  children: ComponentChildren;
}) {
  const [open, setOpen] = useState(props.initiallyOpen);
  return (
    <>
      <div class="item__actions">
        <button
          type="button"
          class="button button--small button--quiet"
          aria-expanded={open}
          aria-controls={props.id}
          // Several shares each have one: the name says whose files (the visible words first),
          // with the first file's name, since two shares to the same place share a title.
          aria-label={`${open ? 'Hide files' : `Show ${props.count} files`} of ${props.title}, starting with ${props.firstName}`}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide files' : `Show ${props.count} files`}
        </button>
      </div>
      {open ? (
        <ul class="share__files" id={props.id} aria-label={`Files of ${props.title}`}>
          {props.children}
        </ul>
      ) : null}
    </>
  );
}
