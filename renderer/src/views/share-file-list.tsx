// The sheet's Files group: each path with what it would send (or why it is refused), the total,
// the question about empty files, and Add files. The files are one Tab stop: arrow keys move
// between them, Delete removes the one in focus.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PathDescription } from '../../../preload/contract';
import { baseName, countFiles, formatBytes } from '../format';
import {
  type CaptureShown,
  CaptureThumb,
  mayBeCapture,
  mayBeImage,
  useCapturePreviews,
} from './capture-preview';
import { editedOriginal, unconfirmedEdits } from './edited-images';
import { ImageEditor, SEND_SMALLER_EDGE } from './image-editor';
import type { Descriptions } from './path-descriptions';

export function FilesGroup(props: {
  paths: string[];
  described: Descriptions | null;
  empties: string[];
  emptyQuestion: string | null;
  onRemove: (path: string) => void;
  /** An image edited in the editor: the new file takes the original's place. */
  onEdited: (original: string, edited: string) => void;
  /** The long edge past which the editor offers "Send smaller". */
  smallerEdge?: number;
  /** A capture that joins the sheet opens in the editor straight away. */
  openCaptures?: boolean;
  onPick: () => void;
  onSendEmpty: () => void;
}) {
  const { paths, described, empties } = props;
  return (
    <fieldset class="group group--files">
      <legend class="group__label">Files</legend>
      {paths.length === 0 ? (
        <p class="muted">No files yet.</p>
      ) : (
        <FileList
          paths={paths}
          described={described}
          onRemove={props.onRemove}
          onEdited={props.onEdited}
          smallerEdge={props.smallerEdge ?? SEND_SMALLER_EDGE}
          openCaptures={props.openCaptures ?? false}
        />
      )}
      {described && paths.length > 0 ? (
        <p class="file-total" aria-live="polite">
          {fileTotal(paths, described)}
        </p>
      ) : null}
      {props.emptyQuestion ? (
        <fieldset class="confirm confirm--block" aria-label="Share empty files?">
          <span class="confirm__question">{props.emptyQuestion}</span>
          <button
            type="button"
            class="button button--small"
            onClick={() => {
              for (const p of empties) props.onRemove(p);
            }}
          >
            Leave {empties.length === 1 ? 'it' : 'them'} out
          </button>
          <button type="button" class="button button--small" onClick={props.onSendEmpty}>
            Share anyway
          </button>
        </fieldset>
      ) : null}
      <button type="button" class="button button--small" onClick={props.onPick}>
        Add files…
      </button>
    </fieldset>
  );
}

/** Where arrow keys, Home and End move from `at`; null for any other key. */
function movedTo(key: string, at: number, last: number): number | null {
  if (key === 'ArrowDown') return Math.min(at + 1, last);
  if (key === 'ArrowUp') return Math.max(at - 1, 0);
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  return null;
}

/** Captures the editor has opened by itself ("Open captures in the editor"), for this page's life. */
const autoOpened = new Set<string>();

function FileList(props: {
  paths: string[];
  described: Descriptions | null;
  onRemove: (path: string) => void;
  onEdited: (original: string, edited: string) => void;
  smallerEdge: number;
  openCaptures: boolean;
}) {
  const [current, setCurrent] = useState(0);
  const [editing, setEditing] = useState<string | null>(null);
  // Each capture opens by itself once (not again when a kept draft shows it).
  const newCapture = props.paths.find((p) => mayBeCapture(p) && !autoOpened.has(p));
  useEffect(() => {
    if (!newCapture || editing) return;
    autoOpened.add(newCapture);
    if (props.openCaptures) setEditing(newCapture);
  }, [newCapture, props.openCaptures, editing]);
  const list = useRef<HTMLUListElement>(null);
  const previews = useCapturePreviews(props.paths);
  const at = Math.min(current, props.paths.length - 1);
  const focusAt = (index: number) => {
    setCurrent(index);
    list.current?.querySelectorAll<HTMLButtonElement>('.file-list__remove')[index]?.focus();
  };
  const remove = (index: number) => {
    const group = list.current?.closest('fieldset');
    props.onRemove(props.paths[index]!);
    // Focus stays in the list, on the file that took the removed one's place; the last file
    // gone, it moves to Add files.
    // A task, not an animation frame: the list has re-rendered by then, and frames are not
    // drawn for a window in the background, where the focus would be left on nothing.
    const left = props.paths.length - 1;
    setTimeout(() => {
      if (left > 0) focusAt(Math.min(index, left - 1));
      else group?.querySelector<HTMLButtonElement>('button')?.focus();
    }, 0);
  };
  // Back from the editor, focus returns to the row's Edit button (the edited file's, after Done).
  const backTo = (path: string) =>
    setTimeout(() => {
      const rows = list.current?.querySelectorAll('li') ?? [];
      const index = props.paths.indexOf(path);
      rows[index < 0 ? at : index]?.querySelector<HTMLButtonElement>('.file-list__edit')?.focus();
    }, 0);
  const onKeyDown = (e: KeyboardEvent) => {
    if (editing) return;
    const next = movedTo(e.key, at, props.paths.length - 1);
    if (next !== null) {
      e.preventDefault();
      focusAt(next);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      remove(at);
    }
  };
  return (
    <>
      <ul class="file-list" ref={list} aria-label="Files to share" onKeyDown={onKeyDown}>
        {props.paths.map((path, index) => (
          <FileRow
            key={path}
            path={path}
            about={props.described?.get(path)}
            preview={previews.get(path)}
            tabbable={index === at}
            onFocus={() => setCurrent(index)}
            onRemove={() => remove(index)}
            onEdit={() => setEditing(path)}
          />
        ))}
      </ul>
      {editing ? (
        <ImageEditor
          path={editing}
          smallerEdge={props.smallerEdge}
          onCancel={() => {
            setEditing(null);
            backTo(editing);
          }}
          onDone={(edited) => {
            setEditing(null);
            props.onEdited(editing, edited);
            backTo(edited);
          }}
        />
      ) : null}
    </>
  );
}

function FileRow(props: {
  path: string;
  about: PathDescription | undefined;
  /** A screen capture's thumbnail and how it was taken. */
  preview: CaptureShown | undefined;
  /** The list's one Tab stop. */
  tabbable: boolean;
  onFocus: () => void;
  onRemove: () => void;
  onEdit: () => void;
}) {
  const { path, about } = props;
  const edited = editedOriginal(path) !== undefined;
  return (
    <li class={`file-list__item${about?.refused ? ' file-list__item--refused' : ''}`}>
      {props.preview ? <CaptureThumb preview={props.preview} name={baseName(path)} /> : null}
      <span class="file-list__name">{baseName(path)}</span>
      {edited ? <span class="file-list__edited">edited</span> : null}
      {/* Edits left with Esc: not in the file until Done, so the row says so. */}
      {unconfirmedEdits(path) ? (
        <span class="file-list__unconfirmed">edits not applied</span>
      ) : null}
      {about ? <span class="file-list__size">{describeOne(about)}</span> : null}
      <span class="file-list__dir" title={path}>
        {parentOf(path)}
      </span>
      {about?.refused ? (
        <span class="file-list__refused">Not shared: {about.refused.reason}</span>
      ) : about?.skipped?.[0] ? (
        <span class="file-list__skipped">
          {`${about.skipped.length === 1 ? '1 file inside is' : `${about.skipped.length} files inside are`} left out${about.skipped.length === 1 ? '' : ', the first'}: ${baseName(about.skipped[0].path)}: ${about.skipped[0].reason}`}
        </span>
      ) : null}
      {mayBeImage(path) && !about?.refused ? (
        <button
          type="button"
          class="button button--small button--quiet file-list__edit"
          aria-label={`Edit ${baseName(path)}`}
          tabIndex={props.tabbable ? 0 : -1}
          onFocus={props.onFocus}
          onClick={props.onEdit}
        >
          Edit…
        </button>
      ) : null}
      <button
        type="button"
        class="button button--small button--quiet file-list__remove"
        aria-label={`Remove ${baseName(path)}`}
        tabIndex={props.tabbable ? 0 : -1}
        onFocus={props.onFocus}
        onClick={props.onRemove}
      >
        Remove
      </button>
    </li>
  );
}

function parentOf(path: string): string {
  const name = baseName(path);
  const cut = path.lastIndexOf(name);
  return cut > 0 ? path.slice(0, cut).replace(/[\\/]+$/, '') : '';
}

/** "12 KB", "Folder · 3 files · 1.2 MB", "Folder" (when refused, the reason says the rest). */
function describeOne(about: PathDescription): string {
  if (about.refused) return about.kind === 'folder' ? 'Folder' : '';
  const size = formatBytes(about.bytes);
  return about.kind === 'folder' ? `Folder · ${countFiles(about.files)} · ${size}` : size;
}

/** "Total: 4 files, 1.3 MB", with what is left out. */
function fileTotal(paths: string[], described: Descriptions): string {
  let files = 0;
  let bytes = 0;
  let refused = 0;
  for (const path of paths) {
    const about = described.get(path);
    if (!about || about.refused) refused++;
    else {
      files += about.files;
      bytes += about.bytes;
    }
  }
  const total =
    files === 0 ? 'Nothing to share' : `Total: ${countFiles(files)}, ${formatBytes(bytes)}`;
  return refused === 0
    ? total
    : `${total} (${refused} ${refused === 1 ? 'path' : 'paths'} left out)`;
}
