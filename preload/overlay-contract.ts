// The Windows capture overlay's own door to the main process, and nothing else: the page gets
// its display's picture, says when it shows it, and reports what the person did (main checks
// the sender and the shape, and decides what that selects: main/core/capture/overlay-selection).
import type { OverlayInput, Point } from '../main/core/capture/overlay-selection';

export type OverlayPoint = Point;

export const OVERLAY_CHANNELS = {
  image: 'trayshare-overlay:image',
  ready: 'trayshare-overlay:ready',
  choose: 'trayshare-overlay:choose',
} as const;

/** The display's picture as JPEG bytes (only for showing: the capture is cut from the original). */
export interface OverlayImage {
  jpeg: Uint8Array;
}

export interface OverlayBridge {
  image(): Promise<OverlayImage>;
  /** The picture is drawn: the window may show. */
  ready(): Promise<void>;
  /** True when main took it as a choice (a capture or a cancel): the overlay is closing. */
  choose(input: OverlayInput): Promise<boolean>;
}
