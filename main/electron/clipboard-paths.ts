// Files on the clipboard, as file managers put them there: a URI list (Linux, and what
// Chromium maps copied files to), GNOME's own list, macOS's file URL, Windows' first file name.
// Text made only of file URLs or absolute paths counts too. Any other text is not shared:
// Trayshare shares files, and says so.
// Electron 45's clipboard is asynchronous and typed by MIME type; a platform's own format is
// asked for as `electron application/osclipboard;format="<name>"`.
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ClipboardItemLike {
  readonly types: readonly string[];
  getType(type: string): Promise<unknown>;
}

export interface ClipboardLike {
  has(type: string): Promise<boolean>;
  read(): Promise<ClipboardItemLike[]>;
  readText(): Promise<string>;
}

export interface ClipboardFiles {
  paths: string[];
  /** True when the clipboard held text that was not file paths (it is not shared). */
  otherText: boolean;
}

export const osFormat = (name: string) => `electron application/osclipboard;format="${name}"`;

function fromFileUrls(lines: string[]): string[] | null {
  const paths: string[] = [];
  for (const line of lines) {
    try {
      paths.push(fileURLToPath(line));
    } catch {
      return null;
    }
  }
  return paths;
}

function linesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/\0+$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** Paths from text made only of file URLs or absolute paths, one per line; else null. */
function pathsFromText(text: string): string[] | null {
  const lines = linesOf(text);
  if (lines.length === 0) return null;
  if (lines.every((l) => l.startsWith('file://'))) return fromFileUrls(lines);
  if (lines.every((l) => isAbsolute(l))) return lines;
  return null;
}

interface Candidate {
  type: string;
  encoding: 'utf8' | 'utf16le';
  parse: (text: string) => string[] | null;
}

function candidates(platform: NodeJS.Platform): Candidate[] {
  const uriList = (text: string) => fromFileUrls(linesOf(text));
  const list: Candidate[] = [{ type: 'text/uri-list', encoding: 'utf8', parse: uriList }];
  if (platform === 'darwin') {
    list.push({ type: osFormat('public.file-url'), encoding: 'utf8', parse: uriList });
  } else if (platform === 'win32') {
    list.push({
      type: osFormat('FileNameW'),
      encoding: 'utf16le',
      parse: (text) => {
        const name = text.replace(/\0[\s\S]*$/, '');
        return name ? [name] : null;
      },
    });
  } else {
    list.push({
      type: osFormat('x-special/gnome-copied-files'),
      encoding: 'utf8',
      // "copy" or "cut", then one file URL per line.
      parse: (text) => fromFileUrls(linesOf(text).filter((l) => l !== 'copy' && l !== 'cut')),
    });
  }
  return list;
}

async function blobText(value: unknown, encoding: 'utf8' | 'utf16le'): Promise<string | null> {
  if (typeof value === 'string') return value;
  if (value instanceof Blob) return Buffer.from(await value.arrayBuffer()).toString(encoding);
  return null;
}

async function readType(clipboard: ClipboardLike, candidate: Candidate): Promise<string[] | null> {
  if (!(await clipboard.has(candidate.type))) return null;
  for (const item of await clipboard.read()) {
    if (!item.types.includes(candidate.type)) continue;
    const text = await blobText(await item.getType(candidate.type), candidate.encoding);
    const paths = text === null ? null : candidate.parse(text);
    if (paths && paths.length > 0) return paths;
  }
  return null;
}

export async function readClipboardFiles(
  clipboard: ClipboardLike,
  platform: NodeJS.Platform,
): Promise<ClipboardFiles> {
  for (const candidate of candidates(platform)) {
    try {
      const paths = await readType(clipboard, candidate);
      if (paths) return { paths, otherText: false };
    } catch {
      // A format the platform does not offer after all: try the next one.
    }
  }
  const text = await clipboard.readText();
  const fromText = pathsFromText(text);
  if (fromText) return { paths: fromText, otherText: false };
  return { paths: [], otherText: text.trim() !== '' };
}

/** An image on the clipboard (a screenshot), as PNG bytes; null when it holds none. */
export async function readClipboardImage(clipboard: ClipboardLike): Promise<Uint8Array | null> {
  try {
    if (!(await clipboard.has('image/png'))) return null;
    for (const item of await clipboard.read()) {
      if (!item.types.includes('image/png')) continue;
      const value = await item.getType('image/png');
      if (value instanceof Blob) return new Uint8Array(await value.arrayBuffer());
    }
  } catch {
    // The image went away while it was read (another app copied something): there is none.
  }
  return null;
}
