// Images edited in the share sheet: the new file main kept for each (its path takes the
// original's place in the sheet) and the file it was made from, which is never changed. Kept for
// the page's life, so a kept draft's rows still say "edited".
const originals = new Map<string, string>();

export function markEdited(path: string, original: string): void {
  originals.set(path, editedOriginal(original) ?? original);
}

/** The file an edited image was made from; undefined for a path that was not edited here. */
export function editedOriginal(path: string): string | undefined {
  return originals.get(path);
}
