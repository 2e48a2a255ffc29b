// What kind of image some bytes are, by their first bytes (the file formats' signatures), shared
// by the core (which reads and keeps images for the share sheet), the IPC contract (which checks
// an edited image before main takes it) and the page. Signatures: PNG, section 5.2 of the PNG
// specification (https://www.w3.org/TR/png-3/#5PNG-file-signature); JPEG, the SOI marker FF D8
// followed by another marker's FF (ITU T.81, annex B); WebP, a RIFF header whose form type is
// "WEBP" (https://developers.google.com/speed/webp/docs/riff_container).

export type SheetImageType = 'image/png' | 'image/jpeg' | 'image/webp';

/**
 * Largest image the share sheet shows, edits or takes back edited: an 8K screenshot as PNG is
 * about 60 MiB, and the page holds the bytes once while it decodes them.
 */
export const MAX_EDITED_IMAGE_BYTES = 64 * 1024 ** 2;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (bytes: Uint8Array, at: number, expected: readonly number[]) =>
  expected.every((b, i) => bytes[at + i] === b);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image's type by its signature, or null for anything else (or too short to be one). */
export function imageTypeOf(bytes: Uint8Array): SheetImageType | null {
  if (bytes.length > PNG.length && startsWith(bytes, 0, PNG)) return 'image/png';
  if (bytes.length > 3 && startsWith(bytes, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (
    bytes.length > 12 &&
    startsWith(bytes, 0, ascii('RIFF')) &&
    startsWith(bytes, 8, ascii('WEBP'))
  )
    return 'image/webp';
  return null;
}
