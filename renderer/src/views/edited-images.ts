// Images edited in the share sheet: the new file main kept for each (its path takes the
// original's place in the sheet) and the file it was made from, which is never changed. Kept for
// the page's life, so a kept draft's rows still say "edited".
import type { EditorDraft } from './image-marks';

const originals = new Map<string, string>();

export function markEdited(path: string, original: string): void {
  originals.set(path, editedOriginal(original) ?? original);
}

/** The file an edited image was made from; undefined for a path that was not edited here. */
export function editedOriginal(path: string): string | undefined {
  return originals.get(path);
}

/**
 * Edits not yet confirmed with Done, by the image they were drawn on: Esc in the editor (and then
 * Esc on the sheet) keeps them, as the sheet keeps the rest of a draft, so Edit opens with them
 * again, undo history included; Cancel and Done drop them, and so do sending the share and
 * cancelling the sheet. Only shapes and a crop, no pixels, so
 * keeping them for the page's life costs next to nothing.
 */
const unconfirmed = new Map<string, EditorDraft>();

export function keepUnconfirmed(path: string, draft: EditorDraft): void {
  unconfirmed.set(path, draft);
}
export function dropUnconfirmed(path: string): void {
  unconfirmed.delete(path);
}
/** A share sent or a sheet cancelled ends its files' drafts: a later drop starts clean. */
export function forgetUnconfirmed(paths: readonly string[]): void {
  for (const path of paths) unconfirmed.delete(path);
}
export function unconfirmedEdits(path: string): EditorDraft | undefined {
  return unconfirmed.get(path);
}
