// The marks of the image editor (image-editor.tsx) and how they are burnt into the pixels: the
// editor draws them on its view, and flattens them into the file it sends. Shapes are kept in the
// image's own pixels.

type ShapeKind = 'redact' | 'box' | 'arrow' | 'text';

/** In image pixels. An arrow goes from (x, y) to (x + w, y + h); the others are boxes. */
export interface Shape {
  kind: ShapeKind;
  x: number;
  y: number;
  w: number;
  h: number;
  text?: string;
}
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}
export interface Doc {
  shapes: Shape[];
  crop: Rect | null;
}
/** Edits not confirmed yet, with their undo history (edited-images.ts keeps them). */
export interface EditorDraft {
  doc: Doc;
  past: Doc[];
  future: Doc[];
}

/** Solid and opaque: the pixels under a redaction are replaced, not blurred (blur can be undone). */
const REDACT = '#000000';
/** Strong on light and dark screenshots: a saturated red inside a white rim. */
const MARK = '#e0162b';
const RIM = '#ffffff';

/**
 * A box with its width and height made positive, on whole pixels, inside the image. A redaction
 * grows to every pixel it touches (nothing half covered stays readable); a crop takes the nearest.
 */
export function normal(r: Rect, width: number, height: number, nearest = false): Rect {
  const [down, up] = nearest ? [Math.round, Math.round] : [Math.floor, Math.ceil];
  const x0 = Math.max(0, down(Math.min(r.x, r.x + r.w)));
  const y0 = Math.max(0, down(Math.min(r.y, r.y + r.h)));
  const x1 = Math.min(width, up(Math.max(r.x, r.x + r.w)));
  const y1 = Math.min(height, up(Math.max(r.y, r.y + r.h)));
  return { x: x0, y: y0, w: Math.max(0, x1 - x0), h: Math.max(0, y1 - y0) };
}

/** Line widths and text size grow with the image, so marks read the same on any screenshot. */
export const strokeOf = (image: { width: number; height: number }) =>
  Math.max(3, Math.round(Math.max(image.width, image.height) / 300));

function textBox(g: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, s: Shape) {
  return { w: Math.ceil(g.measureText(s.text ?? '').width), h: s.h };
}

export function drawShape(
  g: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D,
  s: Shape,
  stroke: number,
): void {
  g.lineJoin = 'round';
  g.lineCap = 'round';
  if (s.kind === 'redact') {
    g.fillStyle = REDACT;
    g.fillRect(s.x, s.y, s.w, s.h);
    return;
  }
  if (s.kind === 'text') {
    g.font = `bold ${s.h}px system-ui, sans-serif`;
    g.textBaseline = 'top';
    g.lineWidth = Math.max(2, s.h / 6);
    g.strokeStyle = RIM;
    g.strokeText(s.text ?? '', s.x, s.y);
    g.fillStyle = MARK;
    g.fillText(s.text ?? '', s.x, s.y);
    return;
  }
  const path = new Path2D();
  if (s.kind === 'box') path.rect(s.x, s.y, s.w, s.h);
  else {
    const [x1, y1] = [s.x + s.w, s.y + s.h];
    const angle = Math.atan2(s.h, s.w);
    const head = stroke * 4;
    path.moveTo(s.x, s.y);
    path.lineTo(x1, y1);
    path.moveTo(x1 - head * Math.cos(angle - 0.5), y1 - head * Math.sin(angle - 0.5));
    path.lineTo(x1, y1);
    path.lineTo(x1 - head * Math.cos(angle + 0.5), y1 - head * Math.sin(angle + 0.5));
  }
  g.strokeStyle = RIM;
  g.lineWidth = stroke + 4;
  g.stroke(path);
  g.strokeStyle = MARK;
  g.lineWidth = stroke;
  g.stroke(path);
}

/** The box a shape takes, to select it. */
export function boundsOf(g: CanvasRenderingContext2D | null, s: Shape): Rect {
  if (s.kind === 'text' && g) {
    g.font = `bold ${s.h}px system-ui, sans-serif`;
    const { w, h } = textBox(g, s);
    return { x: s.x, y: s.y, w, h };
  }
  return {
    x: Math.min(s.x, s.x + s.w),
    y: Math.min(s.y, s.y + s.h),
    w: Math.abs(s.w),
    h: Math.abs(s.h),
  };
}

export const inside = (r: Rect, x: number, y: number, slack: number) =>
  x >= r.x - slack && x <= r.x + r.w + slack && y >= r.y - slack && y <= r.y + r.h + slack;

export type SentType = 'image/png' | 'image/jpeg';

const fourCC = (b: Uint8Array, at: number) => String.fromCharCode(...b.subarray(at, at + 4));

/**
 * What an edited image is sent as, from the original's first bytes: a JPEG photo stays a JPEG; a
 * PNG stays a PNG (a screenshot's text stays sharp). A WebP is sent as what it is closest to, as
 * main takes back only PNG or JPEG: a lossy one (a "VP8 " image chunk) without transparency is
 * a photo and goes as a JPEG, like a JPEG photo would; a lossless one ("VP8L"), or one with an
 * alpha channel (the Alpha (L) flag, 0x10, of its "VP8X" header), goes as a PNG, which loses
 * nothing of it. The WebP container specification's "Simple File Format (Lossy)", "(Lossless)"
 * and "Extended File Format": https://developers.google.com/speed/webp/docs/riff_container
 */
export function sentType(head: Uint8Array, type: string): SentType {
  if (type === 'image/jpeg') return 'image/jpeg';
  if (type !== 'image/webp' || fourCC(head, 0) !== 'RIFF' || fourCC(head, 8) !== 'WEBP') {
    return 'image/png';
  }
  const first = fourCC(head, 12);
  if (first === 'VP8 ') return 'image/jpeg';
  if (first !== 'VP8X' || (head[20] ?? 0) & 0x10) return 'image/png';
  // An extended file: its image chunk follows the optional ones (ICC profile, animation), each
  // an ID, a 32-bit little-endian size and a payload padded to an even length (section 2.7).
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  for (let at = 12; at + 8 <= head.length; ) {
    const id = fourCC(head, at);
    if (id === 'VP8 ') return 'image/jpeg';
    if (id === 'VP8L' || id === 'ANMF' || id === 'ALPH') return 'image/png';
    const size = view.getUint32(at + 4, true);
    at += 8 + size + (size % 2);
  }
  return 'image/png';
}
