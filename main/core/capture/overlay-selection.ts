// Windows: Trayshare's own overlay over each display (the Snipping Tool gives an image back only
// to MSIX-packaged apps; the NSIS build is not one). The overlay shows the display's pixels from
// Electron's desktopCapturer; these pure rules turn what the person does on it into the part of
// that image to keep. Overlay coordinates are DIPs of one display; the image is in physical
// pixels, and each display has its own scale factor (screen.getAllDisplays()[i].scaleFactor).
// desktopCapturer may give an image of another size than asked ("no guarantee that the size of
// the thumbnail is the same as the thumbnailSize"): the scale is measured on the image itself.

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/** A display as Electron's screen module describes it: bounds in DIPs, and its scale factor. */
export interface DisplayLike {
  id: number;
  bounds: Rect;
  scaleFactor: number;
}

/** A drag shorter than this (DIPs) is a click, not an area. */
const CLICK_SLOP = 4;

/** The size to ask desktopCapturer for: the display's size in physical pixels. */
export function capturePixelSize(display: DisplayLike): { width: number; height: number } {
  return {
    width: Math.round(display.bounds.width * display.scaleFactor),
    height: Math.round(display.bounds.height * display.scaleFactor),
  };
}

/** The rectangle between two points of a drag, in either direction, kept on the display. */
function dragRect(from: Point, to: Point, display: DisplayLike): Rect | null {
  const { width, height } = display.bounds;
  const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max);
  const x1 = clamp(Math.min(from.x, to.x), width);
  const y1 = clamp(Math.min(from.y, to.y), height);
  const x2 = clamp(Math.max(from.x, to.x), width);
  const y2 = clamp(Math.max(from.y, to.y), height);
  if (x2 - x1 < CLICK_SLOP && y2 - y1 < CLICK_SLOP) return null;
  return { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
}

/**
 * A DIP rectangle of the display as the pixels of its captured image: edges rounded outwards,
 * so a selection never loses its last row or column, and kept inside the image.
 */
export function toImagePixels(
  rect: Rect,
  display: DisplayLike,
  image: { width: number; height: number },
): Rect {
  const sx = image.width / display.bounds.width;
  const sy = image.height / display.bounds.height;
  const left = Math.max(0, Math.floor(rect.x * sx));
  const top = Math.max(0, Math.floor(rect.y * sy));
  const right = Math.min(image.width, Math.ceil((rect.x + rect.width) * sx));
  const bottom = Math.min(image.height, Math.ceil((rect.y + rect.height) * sy));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** A point in the virtual desktop's DIPs as the display it is on and a point on that display. */
export function displayAt(
  point: Point,
  displays: readonly DisplayLike[],
): { display: DisplayLike; local: Point } | null {
  for (const display of displays) {
    const { x, y, width, height } = display.bounds;
    if (point.x >= x && point.x < x + width && point.y >= y && point.y < y + height) {
      return { display, local: { x: point.x - x, y: point.y - y } };
    }
  }
  return null;
}

/** A window's rectangle (virtual-desktop DIPs), topmost first. */
export interface WindowBox {
  id: string;
  bounds: Rect;
}

/**
 * The person's choice on the overlay: Esc cancels, Enter takes the whole display, a drag an
 * area, a click the topmost window under it (or the whole display where no window is).
 */
export type OverlayInput =
  | { kind: 'key'; key: string }
  | { kind: 'drag'; from: Point; to: Point }
  | { kind: 'click'; at: Point };

export type OverlayChoice =
  | { kind: 'cancel' }
  | { kind: 'area'; rect: Rect }
  | { kind: 'window'; id: string; rect: Rect }
  | { kind: 'screen' }
  | { kind: 'none' };

export function overlayChoice(
  input: OverlayInput,
  display: DisplayLike,
  windows: readonly WindowBox[] = [],
): OverlayChoice {
  if (input.kind === 'key') {
    if (input.key === 'Escape') return { kind: 'cancel' };
    if (input.key === 'Enter') return { kind: 'screen' };
    return { kind: 'none' };
  }
  if (input.kind === 'drag') {
    const rect = dragRect(input.from, input.to, display);
    if (rect) return { kind: 'area', rect };
    return overlayChoice({ kind: 'click', at: input.to }, display, windows);
  }
  const at = { x: input.at.x + display.bounds.x, y: input.at.y + display.bounds.y };
  const hit = windows.find(
    (w) =>
      at.x >= w.bounds.x &&
      at.x < w.bounds.x + w.bounds.width &&
      at.y >= w.bounds.y &&
      at.y < w.bounds.y + w.bounds.height,
  );
  if (!hit) return { kind: 'screen' };
  // The part of the window on this display, in the display's own DIPs.
  const local = dragRect(
    { x: hit.bounds.x - display.bounds.x, y: hit.bounds.y - display.bounds.y },
    {
      x: hit.bounds.x + hit.bounds.width - display.bounds.x,
      y: hit.bounds.y + hit.bounds.height - display.bounds.y,
    },
    display,
  );
  return local ? { kind: 'window', id: hit.id, rect: local } : { kind: 'screen' };
}

/** A desktopCapturer screen source, as far as matching it to a display goes. */
export interface ScreenSourceLike {
  /** "A unique identifier that will correspond to the id of the matching Display" — or ''. */
  display_id: string;
}

/**
 * Each display's screen source: by display_id, which Electron documents as the Display's id
 * (empty "if not available"); where none has one and the counts agree, in the order given. A
 * display left without a source is left out (the overlay covers the others).
 */
export function matchSources<S extends ScreenSourceLike>(
  displays: readonly DisplayLike[],
  sources: readonly S[],
): { display: DisplayLike; source: S }[] {
  const byId = displays.flatMap((display) => {
    const source = sources.find((s) => s.display_id !== '' && s.display_id === String(display.id));
    return source ? [{ display, source }] : [];
  });
  if (byId.length > 0) return byId;
  if (sources.every((s) => s.display_id === '') && sources.length === displays.length) {
    return displays.map((display, i) => ({ display, source: sources[i]! }));
  }
  return [];
}

/**
 * The size in the display's device pixels of a DIP rectangle on it: what a crop is brought to
 * when desktopCapturer's image was not at the display's own pixel size (another thumbnailSize
 * was asked to fit a larger display beside it).
 */
export function devicePixelSize(
  rect: { width: number; height: number },
  display: DisplayLike,
): { width: number; height: number } {
  return {
    width: Math.max(1, Math.round(rect.width * display.scaleFactor)),
    height: Math.max(1, Math.round(rect.height * display.scaleFactor)),
  };
}

/** One size to ask desktopCapturer for that holds every display at its own pixel size. */
export function captureBox(displays: readonly DisplayLike[]): { width: number; height: number } {
  const sizes = displays.map(capturePixelSize);
  return {
    width: Math.max(1, ...sizes.map((s) => s.width)),
    height: Math.max(1, ...sizes.map((s) => s.height)),
  };
}
