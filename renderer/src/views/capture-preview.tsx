// An image in the share sheet: a thumbnail (and for a screen capture, how it was taken) beside
// its name. Main gives the page a capture's bytes (readCapture, as bytes: no base64 either way),
// and those of a PNG, JPEG or WebP the person handed the app (readImage), and no other file's;
// they are asked for as soon as main says the share is coming, and decoded at full size, then
// scaled from there for the thumbnail: the two latest full-size decodes are kept for the image
// editor, the others given back at once (an image over that bound is decoded already scaled,
// createImageBitmap's resize); a thumbnail is drawn on a canvas (the page's CSP allows no blob:
// images). Blink decodes a PNG for createImageBitmap on
// a background thread, not the page's ("Image Decoding in Blink", Chrome team:
// https://gist.github.com/addyosmani/ffa9706d8d354e5354a33ac9f17e9689), so the sheet renders
// meanwhile. Measured on the bench's 4K PNG in Chromium, the decode itself is nearly all of it:
// a full decode, a resize in createImageBitmap, or a full decode drawn down onto the thumbnail
// cost the same within noise; halving step by step on canvases cost half as much again.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { SheetImageType } from '../../../main/portable/image-bytes';
import type { CapturePreview } from '../../../preload/contract';
import { api } from '../bridge';
import { baseName } from '../format';
import { imageSize, type Size } from '../image-size';
import { editedOriginal } from './edited-images';

/** The names main gives captures and pasted images (main/core/pasted-images.ts). */
const CAPTURE_NAME = /^Screenshot \d{4}-\d\d-\d\d at \d\d\.\d\d\.\d\d( \(\d+\))?\.png$/;

/** Paths that may be captures: only these are asked about (and dropped with a cancelled sheet). */
export const mayBeCapture = (path: string) => CAPTURE_NAME.test(baseName(path));

/** Names of the images the sheet shows and edits (main checks the bytes' signature itself). */
const IMAGE_NAME = /\.(png|jpe?g|webp)$/i;

/** Paths that may be images: only these are asked for (main answers null for anything else). */
export const mayBeImage = (path: string) => IMAGE_NAME.test(baseName(path));

const THUMB = { width: 96, height: 64 };

/**
 * A capture or edited image the person took out of the sheet, or cancelled with it, is deleted
 * (main keeps a queued one, and refuses any other file).
 */
export function discardCaptures(paths: readonly string[]): void {
  for (const path of paths.filter((p) => mayBeCapture(p) || editedOriginal(p) !== undefined)) {
    api()
      .discardCapture(path)
      .catch(() => undefined);
  }
}

const SOURCE_WORDS: Record<CapturePreview['source'], string> = {
  area: 'Screenshot of an area',
  window: 'Screenshot of a window',
  screen: 'Screenshot of the screen',
};

/** An image ready to show: its thumbnail decoded at the size it is drawn (and how a capture was taken). */
export interface CaptureShown {
  source?: CapturePreview['source'];
  /** Null when the bytes could not be decoded: the row then shows the words alone. */
  bitmap: ImageBitmap | null;
  /** CSS pixels; the bitmap has the device's pixels. */
  size: { width: number; height: number };
}

function thumbSize(size: Size) {
  const scale = Math.min(THUMB.width / size.width, THUMB.height / size.height, 1);
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
}

async function decode(
  image: { bytes: Uint8Array; type: SheetImageType },
  source?: CapturePreview['source'],
  keepFor?: string,
): Promise<CaptureShown> {
  const bytes = image.bytes as Uint8Array<ArrayBuffer>;
  const ratio = window.devicePixelRatio || 1;
  const about = source ? { source } : {};
  try {
    const header = imageSize(bytes, image.type);
    if (!header) throw new Error('no size in the header');
    const size = thumbSize(header);
    const blob = new Blob([bytes], { type: image.type });
    const resize = {
      resizeWidth: Math.round(size.width * ratio),
      resizeHeight: Math.round(size.height * ratio),
      resizeQuality: 'medium',
    } as const;
    if (keepFor === undefined || header.width * header.height * 4 > DECODED_KEPT.bytes) {
      return { ...about, bitmap: await createImageBitmap(blob, resize), size };
    }
    // Decoded once at full size, kept for the editor, and scaled from there for the thumbnail:
    // Edit then only draws (a 4K screenshot's decode alone takes about 140 ms).
    const full = await createImageBitmap(blob);
    const bitmap = await createImageBitmap(full, resize);
    if (shownByPath.has(keepFor)) keepDecoded(keepFor, full);
    else full.close();
    return { ...about, bitmap, size };
  } catch {
    // Not an image the page can read (cut short, damaged): the words alone, the file still shared.
    return { ...about, bitmap: null, size: THUMB };
  }
}

/**
 * Full-size decoded images kept for the editor, the most recent last, within a bound: the two
 * latest images, and no more than about 100 MB of pixels (a 4K screenshot is 33 MB), so a drop
 * of many photos does not hold them all. Dropped, and their memory given back (close), when their
 * image leaves the sheet, the sheet is shared or cancelled, or newer ones push them out.
 */
const DECODED_KEPT = { images: 2, bytes: 100 * 1024 ** 2 };
const decodedByPath = new Map<string, ImageBitmap>();
const pixelBytes = (b: ImageBitmap) => b.width * b.height * 4;

function keepDecoded(path: string, bitmap: ImageBitmap): void {
  const was = decodedByPath.get(path);
  if (was && was !== bitmap) was.close();
  decodedByPath.delete(path);
  decodedByPath.set(path, bitmap);
  let bytes = 0;
  for (const b of decodedByPath.values()) bytes += pixelBytes(b);
  for (const [p, b] of decodedByPath) {
    if (decodedByPath.size <= DECODED_KEPT.images && bytes <= DECODED_KEPT.bytes) break;
    if (p === path) break;
    decodedByPath.delete(p);
    bytes -= pixelBytes(b);
    b.close();
  }
}

/**
 * The image decoded at full size for the editor, if the sheet kept one; the editor owns it then,
 * and hands it back when it closes (giveBackDecoded).
 */
export async function takeDecoded(path: string): Promise<ImageBitmap | null> {
  await shownByPath.get(path);
  const bitmap = decodedByPath.get(path) ?? null;
  decodedByPath.delete(path);
  return bitmap;
}

/** The editor closed: its decoded image is kept for the next Edit while the image is in the sheet. */
export function giveBackDecoded(path: string, bitmap: ImageBitmap): void {
  if (shownByPath.has(path)) keepDecoded(path, bitmap);
  else bitmap.close();
}

/** A capture's own preview (its thumbnail where the tool made one), else the image's bytes. */
async function readPreview(path: string): Promise<CaptureShown | null> {
  if (mayBeCapture(path)) {
    const capture = await api().readCapture(path);
    performance.mark('capture-preview:read');
    if (capture) return decode({ bytes: capture.png, type: 'image/png' }, capture.source);
  }
  const image = await api().readImage(path);
  if (!image) return null;
  // Kept for the editor (Edit…), so its image is already in the page. As a Blob, which Chromium
  // holds outside the page's heap (and may page to disk), and within a bound: a drop of many
  // photos keeps the first ones' bytes, the others are read again if edited.
  if (shownByPath.has(path) && keptBytes + image.bytes.length <= KEPT_BYTES_LIMIT) {
    keptBytes += image.bytes.length;
    blobByPath.set(path, new Blob([image.bytes as Uint8Array<ArrayBuffer>], { type: image.type }));
  }
  return decode(image, undefined, path);
}

const KEPT_BYTES_LIMIT = 128 * 1024 ** 2;
let keptBytes = 0;
const blobByPath = new Map<string, Blob>();

/** An image in the sheet as a Blob: as read for its thumbnail, else read now; null when main has none. */
export async function imageBlob(path: string): Promise<Blob | null> {
  await shownByPath.get(path);
  const kept = blobByPath.get(path);
  if (kept) return kept;
  const image = await api().readImage(path);
  return image && new Blob([image.bytes as Uint8Array<ArrayBuffer>], { type: image.type });
}

// Asked for when main says a share is coming (use-shell.ts), before the sheet renders: the
// bytes' trip and the decode (off the page's thread) overlap the sheet's first
// render instead of starting after it. Keyed by path; a path is asked for once per sheet.
const shownByPath = new Map<string, Promise<CaptureShown | null>>();

/** Starts reading and decoding the images among `paths`; the sheet picks them up when it shows. */
export function prepareCaptures(paths: readonly string[]): void {
  for (const path of paths) {
    if (!mayBeImage(path) || shownByPath.has(path)) continue;
    // Marks for the profiler and bench/capture.ts: bytes asked, bytes here, thumbnail drawn.
    performance.mark('capture-preview:asked');
    shownByPath.set(
      path,
      readPreview(path).catch(() => null),
    );
  }
}

/** Forgets prepared captures that left the sheet, so the same path is read afresh next time. */
function forgetCaptures(keep: ReadonlySet<string>): void {
  for (const path of shownByPath.keys()) {
    if (keep.has(path)) continue;
    shownByPath.delete(path);
    keptBytes -= blobByPath.get(path)?.size ?? 0;
    blobByPath.delete(path);
    decodedByPath.get(path)?.close();
    decodedByPath.delete(path);
  }
}

/** The images among `paths`, once each is read and decoded. */
export function useCapturePreviews(paths: readonly string[]): Map<string, CaptureShown> {
  const [previews, setPreviews] = useState(() => new Map<string, CaptureShown>());
  const key = paths.filter(mayBeImage).join('\n');
  useEffect(() => {
    let live = true;
    const asked = key === '' ? [] : key.split('\n');
    forgetCaptures(new Set(asked));
    prepareCaptures(asked);
    void Promise.all(
      asked.map((path) =>
        (shownByPath.get(path) ?? Promise.resolve(null)).then((s) => [path, s] as const),
      ),
    ).then((answers) => {
      if (!live) return;
      const next = new Map<string, CaptureShown>();
      for (const [path, shown] of answers) if (shown) next.set(path, shown);
      setPreviews(next);
    });
    return () => {
      live = false;
    };
  }, [key]);
  // The sheet gone (cancelled, shared, another view): nothing prepared is kept for it.
  useEffect(() => () => forgetCaptures(new Set()), []);
  return previews;
}

function draw(canvas: HTMLCanvasElement, shown: CaptureShown): void {
  const { bitmap, size } = shown;
  if (!bitmap) throw new Error('not decoded');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  canvas.style.width = `${size.width}px`;
  canvas.style.height = `${size.height}px`;
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  canvas.dataset.drawn = 'true';
  performance.mark('capture-preview:drawn');
}

export function CaptureThumb(props: { preview: CaptureShown; name: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const failed = props.preview.bitmap === null;
  useEffect(() => {
    if (canvas.current && !failed) draw(canvas.current, props.preview);
  }, [props.preview, failed]);
  const words = props.preview.source ? SOURCE_WORDS[props.preview.source] : null;
  return (
    <span class="capture-preview">
      {failed ? null : (
        <canvas
          ref={canvas}
          class="capture-preview__thumb"
          role="img"
          aria-label={`Preview of ${props.name}`}
        />
      )}
      {words ? <span class="capture-preview__source">{words}</span> : null}
    </span>
  );
}
