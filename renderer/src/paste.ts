// Ctrl/Cmd+V in the window. Copied files are shared like a drop; an image (a screenshot: a File
// with no path on disk) goes to main as PNG bytes, which saves it in the state folder and gives
// back a path to share. Text pasted into a field stays the field's.

import { formatOverLimit } from '../../main/portable/format-bytes';
import { MAX_PASTED_IMAGE_BYTES } from '../../main/portable/pasted-image-limit';
import { api } from './bridge';

export type PasteContent =
  | { kind: 'paths'; paths: string[] }
  | { kind: 'image'; file: File }
  | { kind: 'none'; text: boolean };

/** What a paste event holds for Trayshare; call while the event is dispatched (paths need it). */
export function pasteContent(data: DataTransfer): PasteContent {
  const files = [...data.files];
  const paths: string[] = [];
  let image: File | undefined;
  for (const file of files) {
    const path = api().pathForFile(file);
    if (path !== '') paths.push(path);
    else if (file.type.startsWith('image/')) image ??= file;
  }
  if (paths.length > 0) return { kind: 'paths', paths };
  if (image) return { kind: 'image', file: image };
  return { kind: 'none', text: data.types.includes('text/plain') };
}

async function asPng(file: File): Promise<Blob> {
  if (file.type === 'image/png') return file;
  // A browser or image editor may copy a JPEG or WebP: the file Trayshare makes is always a PNG.
  const bitmap = await createImageBitmap(file);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  bitmap.close();
  return canvas.convertToBlob({ type: 'image/png' });
}

function base64Of(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The pasted image could not be read.'));
    reader.readAsDataURL(blob);
  });
}

/** Saves a pasted image through main; resolves to the path of the PNG to share. */
export async function savePastedImage(file: File): Promise<string> {
  let png: Blob;
  try {
    png = await asPng(file);
  } catch {
    throw new Error('The pasted image could not be read, so it was not shared.');
  }
  if (png.size > MAX_PASTED_IMAGE_BYTES) {
    const over = formatOverLimit(png.size, MAX_PASTED_IMAGE_BYTES);
    throw new Error(
      `The pasted image is ${over.size}; Trayshare takes images up to ${over.limit} from the clipboard. Save it to a file and share the file.`,
    );
  }
  return api().savePastedImage(await base64Of(png));
}
