// How the image editor's edits become the file that is sent: the crop and the shapes burnt into
// the pixels on a canvas, then Chromium's own PNG or JPEG encoder.
import { type Doc, drawShape, type SentType, strokeOf } from './image-marks';

/**
 * When the encode may run. 'idle': Chromium's asynchronous encoder (toBlob), which on the page's
 * thread waits for an idle period and starts unprompted only after 1000 ms
 * (kIdleTaskStartTimeoutDelayMs in Blink's
 * third_party/blink/renderer/core/html/canvas/canvas_async_blob_creator.cc): gentle while a
 * person is still looking the image over. 'now': the same native encoder at once, through
 * toDataURL, which HTML defines to return the serialization itself, so nothing can be deferred
 * (https://html.spec.whatwg.org/multipage/canvas.html#dom-canvas-todataurl): for Done, when the
 * person is waiting on it.
 */
export type EncodeWhen = 'idle' | 'now';

/**
 * The page canvases the editor flattens on, kept while it is open. The first drawing on a new
 * 4K canvas costs about 90 ms in Chromium (its backing store is made then), a third of what Done
 * may take, so the editor makes the full-size one ahead (`warm`) and reuses it. At most two are
 * kept: the crop's size and the smaller size "Send smaller" scales to.
 */
export interface Surfaces {
  get(w: number, h: number): HTMLCanvasElement;
  warm(w: number, h: number): void;
  release(): void;
}

export function surfaces(): Surfaces {
  let kept: HTMLCanvasElement[] = [];
  const get = (w: number, h: number) => {
    const found = kept.find((c) => c.width === w && c.height === h);
    if (found) return found;
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    kept = [canvas, ...kept.slice(0, 1)];
    return canvas;
  };
  return {
    get,
    warm: (w, h) => context(get(w, h)).clearRect(0, 0, 1, 1),
    release: () => {
      // A canvas's pixels are freed with it; a zero size frees them now, not at the next GC.
      for (const c of kept) c.width = c.height = 0;
      kept = [];
    },
  };
}

/**
 * The edited image as a file: the crop, the shapes burnt into the pixels, scaled down when asked
 * ('high' smoothing: Chromium's best filter for a canvas downscale), in the type `sentType` chose.
 */
export async function flatten(
  image: ImageBitmap,
  doc: Doc,
  type: SentType,
  longEdge: number | null,
  when: EncodeWhen,
  on: Surfaces,
): Promise<Uint8Array<ArrayBuffer>> {
  const crop = doc.crop ?? { x: 0, y: 0, w: image.width, h: image.height };
  const full = on.get(crop.w, crop.h);
  const g = context(full);
  g.clearRect(0, 0, full.width, full.height);
  g.translate(-crop.x, -crop.y);
  g.drawImage(image, 0, 0);
  const stroke = strokeOf(image);
  for (const shape of doc.shapes) drawShape(g, shape, stroke);
  g.setTransform(1, 0, 0, 1, 0, 0);
  let out = full;
  const scale = longEdge ? Math.min(1, longEdge / Math.max(crop.w, crop.h)) : 1;
  if (scale < 1) {
    out = on.get(Math.max(1, Math.round(crop.w * scale)), Math.max(1, Math.round(crop.h * scale)));
    const small = context(out);
    small.clearRect(0, 0, out.width, out.height);
    small.imageSmoothingEnabled = true;
    small.imageSmoothingQuality = 'high';
    small.drawImage(full, 0, 0, out.width, out.height);
  }
  const quality = type === 'image/jpeg' ? 0.92 : undefined;
  if (when === 'now') return bytesOfDataUrl(out.toDataURL(type, quality));
  const blob = await new Promise<Blob | null>((resolve) => out.toBlob(resolve, type, quality));
  if (!blob) throw new Error('This window could not encode the edited image.');
  return new Uint8Array(await blob.arrayBuffer());
}

function context(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const g = canvas.getContext('2d');
  if (!g) throw new Error('This window cannot draw images (no 2D canvas).');
  return g;
}

/**
 * The bytes of a data: URL. Uint8Array.fromBase64 (Chrome 140 on:
 * https://web-platform-dx.github.io/web-features-explorer/features/uint8array-base64-hex)
 * decodes a 4K screenshot's in about 15 ms, atob and a loop in 40–65 ms.
 */
function bytesOfDataUrl(url: string): Uint8Array<ArrayBuffer> {
  const base64 = url.slice(url.indexOf(',') + 1);
  const typed = Uint8Array as unknown as { fromBase64?(s: string): Uint8Array<ArrayBuffer> };
  if (typed.fromBase64) return typed.fromBase64(base64);
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
