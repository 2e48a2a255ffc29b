// Hidden details removed on the way out, format by format: samples written by ExifTool, the
// bytes an upload would send read through the upload's own reader (file-source.ts), and
// ExifTool, the reference tool, as the judge of what is left.
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  heicSample,
  jpegSample,
  mpfSample,
  pngSample,
  privateTags,
  tagsOf,
  topLevelBox,
  videoSample,
  webpSample,
} from '../../../test/metadata/samples';
import { FileProblem, openForUpload, readFileChunks } from '../upload/file-source';
import { planFile } from './strip';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-metadata-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What an upload of `path` sends, read as the protocols read it, written next to it. */
async function sent(path: string, name: string): Promise<{ out: string; bytes: Buffer }> {
  const opened = await openForUpload({ path, name, strip: {} });
  const chunks: Uint8Array[] = [];
  try {
    for await (const chunk of readFileChunks(opened, name)) chunks.push(Buffer.from(chunk));
  } finally {
    await opened.handle.close();
  }
  const bytes = Buffer.concat(chunks);
  expect(bytes.length).toBe(opened.size);
  const out = join(dir, `sent-${name}`);
  await writeFile(out, bytes);
  return { out, bytes };
}

describe('photos and videos leave without location, serials, owner names and thumbnails', () => {
  it('JPEG: ExifTool finds none of them; orientation stays; the decoded pixels are identical', async () => {
    const path = jpegSample(dir);
    expect(privateTags(path)).toEqual(
      expect.arrayContaining(['GPS:GPSLatitude', 'ExifIFD:SerialNumber', 'IFD1:ThumbnailImage']),
    );
    const plan = await planFile(path, 'photo.jpg');
    expect(plan?.removed).toEqual(
      expect.arrayContaining([
        'location',
        'serial number',
        'owner name',
        'thumbnail',
        'XMP',
        'IPTC',
      ]),
    );
    const { out, bytes } = await sent(path, 'photo.jpg');
    expect(privateTags(out)).toEqual([]);
    expect(tagsOf(out)['IFD0:Orientation']).toBe('6');
    expect(bytes.length).toBe(plan?.size);
    const before = jpeg.decode(await readFile(path), { useTArray: true });
    const after = jpeg.decode(bytes, { useTArray: true });
    expect(Buffer.from(after.data).equals(Buffer.from(before.data))).toBe(true);
  });

  it('JPEG with an MPF preview image after the picture: the preview is cut off, the picture kept', async () => {
    const path = mpfSample(dir);
    expect(Object.keys(tagsOf(path))).toEqual(expect.arrayContaining(['MPImage2:PreviewImage']));
    const { out, bytes } = await sent(path, 'phone.jpg');
    expect(Object.keys(tagsOf(out)).filter((k) => /^MPF|MPImage|PreviewImage/.test(k))).toEqual([]);
    const before = jpeg.decode(await readFile(path), { useTArray: true });
    const after = jpeg.decode(bytes, { useTArray: true });
    expect(Buffer.from(after.data).equals(Buffer.from(before.data))).toBe(true);
  });

  it('PNG: no EXIF, XMP or text chunks are left; the decoded pixels are identical', async () => {
    const path = pngSample(dir);
    expect(privateTags(path).length).toBeGreaterThan(3);
    const { out, bytes } = await sent(path, 'picture.png');
    expect(privateTags(out)).toEqual([]);
    expect(PNG.sync.read(bytes).data.equals(PNG.sync.read(await readFile(path)).data)).toBe(true);
  });

  it('WebP: no EXIF or XMP is left but the orientation; the image data are byte for byte the same', async () => {
    const path = webpSample(dir);
    expect(privateTags(path).length).toBeGreaterThan(3);
    const { out, bytes } = await sent(path, 'picture.webp');
    expect(privateTags(out)).toEqual([]);
    expect(tagsOf(out)['IFD0:Orientation']).toBe('6');
    const image = (b: Buffer) => b.subarray(b.indexOf('VP8L'));
    const original = await readFile(path);
    expect(image(bytes).subarray(0, 21).equals(image(original).subarray(0, 21))).toBe(true);
  });

  it('MOV: no QuickTime location, Keys, UserData or XMP is left; the media data are byte-identical and the file the same length', async () => {
    const path = videoSample(dir);
    expect(privateTags(path)).toEqual(
      expect.arrayContaining(['UserData:GPSCoordinates', 'Keys:GPSCoordinates']),
    );
    const original = await readFile(path);
    const { out, bytes } = await sent(path, 'clip.mov');
    expect(privateTags(out)).toEqual([]);
    expect(bytes.length).toBe(original.length);
    expect(
      topLevelBox(bytes, 'mdat')?.equals(topLevelBox(original, 'mdat') ?? Buffer.alloc(0)),
    ).toBe(true);
    // Still a movie ExifTool reads through: its track is there, and no error.
    const tags = tagsOf(out);
    expect(tags['Track1:CompressorID']).toBe('avc1');
    expect(tags['ExifTool:Error']).toBeUndefined();
  });

  it('MP4: the same, for an ISO brand', async () => {
    const path = videoSample(dir, 'clip.mp4', 32 * 1024, 'isom');
    const { out } = await sent(path, 'clip.mp4');
    expect(privateTags(out)).toEqual([]);
  });

  it('HEIC: the Exif and XMP items are emptied in place; the image item, its properties and the length are unchanged', async () => {
    const path = heicSample(dir);
    expect(privateTags(path)).toEqual(
      expect.arrayContaining(['GPS:GPSLatitude', 'IFD1:ThumbnailImage']),
    );
    const plan = await planFile(path, 'photo.heic');
    expect(plan?.removed).toEqual(
      expect.arrayContaining(['location', 'serial number', 'thumbnail', 'XMP']),
    );
    const original = await readFile(path);
    const { out, bytes } = await sent(path, 'photo.heic');
    expect(privateTags(out)).toEqual([]);
    expect(bytes.length).toBe(original.length);
    // The image item (the first 4096 bytes of mdat) and everything before mdat are as they were.
    const start = original.indexOf('mdat') + 4;
    expect(bytes.subarray(0, start + 4096).equals(original.subarray(0, start + 4096))).toBe(true);
    const tags = tagsOf(out);
    expect(tags['QuickTime:ImageWidth'] ?? tags['Composite:ImageSize']).toBeDefined();
    expect(tags['ExifTool:Error']).toBeUndefined();
  });

  it('the same file always gives the same bytes (a resumed send sends what the first try sent)', async () => {
    const path = jpegSample(dir, 'again.jpg');
    const first = await sent(path, 'again.jpg');
    const second = await sent(path, 'again.jpg');
    expect(second.bytes.equals(first.bytes)).toBe(true);
  });

  it('other files are not touched: no plan', async () => {
    const path = join(dir, 'notes.txt');
    await writeFile(path, 'GPS 48.8584 2.2945\n');
    expect(await planFile(path, 'notes.txt')).toBeUndefined();
  });

  it('a truncated photo is refused with words naming it and what is wrong', async () => {
    const path = jpegSample(dir, 'cut.jpg');
    await truncate(path, 300);
    const refused = await openForUpload({ path, name: 'cut.jpg', strip: {} }).catch((e) => e);
    expect(refused).toBeInstanceOf(FileProblem);
    expect(refused.code).toBe('metadata_unreadable');
    expect(refused.message).toMatch(
      /^cut\.jpg looks damaged \(.+\), so its location .* cannot be removed safely\.$/,
    );
  });

  it('a video whose box runs past the end of the file is refused', async () => {
    const path = videoSample(dir, 'cut.mov', 4096);
    const bytes = await readFile(path);
    await writeFile(path, bytes.subarray(0, bytes.length - 10));
    await expect(planFile(path, 'cut.mov')).rejects.toThrow(/cut\.mov looks damaged/);
  });
});
