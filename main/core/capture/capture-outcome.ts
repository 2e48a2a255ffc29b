// What an OS capture tool gave back, the same for the portal, screencapture and the overlay.

/** What the person asked to take (the share sheet says it beside the thumbnail). */
export type CaptureSource = 'area' | 'window' | 'screen';

export type CaptureOutcome =
  /** The tool wrote the image here (its own file: the capture store copies it). */
  | {
      kind: 'file';
      path: string;
      /** What the person took where the tool lets them choose (the overlay: Enter is a screen). */
      source?: CaptureSource;
      /**
       * A small PNG for the share sheet, from a tool that has the pixels in hand (the overlay):
       * the page then need not decode the whole screenshot to show it.
       */
      thumbnail?: Uint8Array;
    }
  /** The person cancelled (Esc, the desktop's Cancel): nothing happens, nothing is said. */
  | { kind: 'cancelled' }
  /** What went wrong, in words for the person, with what to do. */
  | { kind: 'failed'; message: string };
