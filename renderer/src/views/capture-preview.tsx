// A screen capture in the share sheet: a thumbnail and how it was taken, beside its name. Main
// gives the page a capture's bytes (readCapture, as bytes: no base64 either way) and no other
// file's; the thumbnail is decoded already scaled (createImageBitmap's resize), so a 4K
// screenshot costs a small bitmap, and drawn on a canvas (the page's CSP allows no blob:
// images). Measured on the bench's 4K PNG in Chromium, the decode itself is nearly all of it:
// a full decode, a resize in createImageBitmap, or a full decode drawn down onto the thumbnail
// cost the same within noise; halving step by step on canvases cost half as much again.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CapturePreview } from '../../../preload/contract';
import { api } from '../bridge';
import { baseName } from '../format';

/** The names main gives captures and pasted images (main/core/pasted-images.ts). */
const CAPTURE_NAME = /^Screenshot \d{4}-\d\d-\d\d at \d\d\.\d\d\.\d\d( \(\d+\))?\.png$/;

/** Paths that may be captures: only these are asked about (and dropped with a cancelled sheet). */
export const mayBeCapture = (path: string) => CAPTURE_NAME.test(baseName(path));

const THUMB = { width: 96, height: 64 };

/** A capture the person took out of the sheet, or cancelled with it, is deleted (main keeps a queued one). */
export function discardCaptures(paths: readonly string[]): void {
  for (const path of paths.filter(mayBeCapture)) {
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

/** The captures among `paths`, once main has answered for each. */
export function useCapturePreviews(paths: readonly string[]): Map<string, CapturePreview> {
  const [previews, setPreviews] = useState(() => new Map<string, CapturePreview>());
  const key = paths.filter(mayBeCapture).join('\n');
  useEffect(() => {
    let live = true;
    const asked = key === '' ? [] : key.split('\n');
    // Marks for the profiler and bench/capture.ts: bytes asked, bytes here, thumbnail drawn.
    if (asked.length > 0) performance.mark('capture-preview:asked');
    void Promise.all(
      asked.map((path) =>
        api()
          .readCapture(path)
          .then((preview) => [path, preview] as const)
          .catch(() => [path, null] as const),
      ),
    ).then((answers) => {
      if (asked.length > 0) performance.mark('capture-preview:read');
      if (!live) return;
      const next = new Map<string, CapturePreview>();
      for (const [path, preview] of answers) if (preview) next.set(path, preview);
      setPreviews(next);
    });
    return () => {
      live = false;
    };
  }, [key]);
  return previews;
}

/** The PNG's size from its IHDR chunk (bytes 16-23), to decode it straight at thumbnail size. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function thumbSize(size: { width: number; height: number }) {
  const scale = Math.min(THUMB.width / size.width, THUMB.height / size.height, 1);
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
}

async function draw(canvas: HTMLCanvasElement, preview: CapturePreview): Promise<void> {
  const bytes = preview.png as Uint8Array<ArrayBuffer>;
  const shown = thumbSize(pngSize(bytes));
  const ratio = window.devicePixelRatio || 1;
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }), {
    resizeWidth: Math.round(shown.width * ratio),
    resizeHeight: Math.round(shown.height * ratio),
    resizeQuality: 'medium',
  });
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  canvas.style.width = `${shown.width}px`;
  canvas.style.height = `${shown.height}px`;
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  bitmap.close();
  canvas.dataset.drawn = 'true';
  performance.mark('capture-preview:drawn');
}

export function CaptureThumb(props: { preview: CapturePreview; name: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (canvas.current) draw(canvas.current, props.preview).catch(() => setFailed(true));
  }, [props.preview]);
  const words = SOURCE_WORDS[props.preview.source];
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
      <span class="capture-preview__source">{words}</span>
    </span>
  );
}
