// The core API's pasted images and screen captures: private files in the state folder that a
// share sends like any other file (pasted-images.ts keeps them, capture/ takes them).
import type { AppService } from '../api';
import { takeCapture } from '../capture/take-capture';
import type { openPastedImages } from '../pasted-images';

export function captureMethods(parts: {
  pasted: ReturnType<typeof openPastedImages>;
  /** Pasted images and screen captures, private to the person. */
  dir: string;
  /** Whether the queue holds a file at this path. */
  queued(path: string): boolean;
}): Pick<
  AppService,
  | 'savePastedImage'
  | 'savePastedBytes'
  | 'takeCapture'
  | 'readCapture'
  | 'readImage'
  | 'saveEditedImage'
  | 'offerImages'
  | 'discardCapture'
> {
  const { pasted } = parts;
  return {
    savePastedImage: (pngBase64) => pasted.save(Buffer.from(pngBase64, 'base64')),
    savePastedBytes: (png) => pasted.save(png),
    takeCapture: (capturer, source) =>
      takeCapture({ capturer, source, dir: parts.dir, keep: pasted.keep }),
    readCapture: async (path) => {
      const capture = await pasted.readCapture(path);
      // A copy of exactly the file's bytes: IPC would clone a view's whole backing buffer.
      return capture && { source: capture.source, png: new Uint8Array(capture.png) };
    },
    readImage: async (path) => {
      const image = await pasted.readImage(path);
      return image && { type: image.type, bytes: image.bytes };
    },
    saveEditedImage: (bytes, original) => pasted.saveEdited(bytes, original),
    offerImages: (paths) => pasted.offer(paths),
    // A capture the queue holds stays: its share goes on (the queue's own rules delete it).
    discardCapture: async (path) => {
      if (!parts.queued(path)) pasted.discard(path);
    },
  };
}
