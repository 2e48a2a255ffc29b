// A screenshot-like PNG made by Chromium's own encoder: a desktop with a window showing a failed
// build, at any size (the bench takes 3840×2160, as a 4K display's screenshot).
import type { Page } from 'playwright-core';

export async function sampleScreenshot(page: Page, width: number, height: number): Promise<Buffer> {
  const base64 = await page.evaluate(
    async ([w, h]) => {
      const canvas = new OffscreenCanvas(w, h);
      const g = canvas.getContext('2d')!;
      const s = w / 1600;
      g.fillStyle = '#2f5d8a';
      g.fillRect(0, 0, w, h);
      g.fillStyle = '#f5f5f7';
      g.fillRect(160 * s, 120 * s, 1280 * s, 760 * s);
      g.fillStyle = '#d2d2d7';
      g.fillRect(160 * s, 120 * s, 1280 * s, 48 * s);
      g.fillStyle = '#1d1d1f';
      g.font = `${28 * s}px sans-serif`;
      g.fillText('CI · build #4182', 190 * s, 154 * s);
      g.fillStyle = '#c9252d';
      g.font = `bold ${44 * s}px sans-serif`;
      g.fillText('✗ 3 tests failed', 200 * s, 260 * s);
      g.fillStyle = '#3a3a3c';
      g.font = `${26 * s}px monospace`;
      for (let i = 0; i < 14; i++) {
        // Text-like noise, so the PNG is as large as a real screenshot's, not a flat fill.
        const line = Array.from({ length: 60 }, (_, j) =>
          String.fromCharCode(97 + ((i * 7 + j * 13) % 26)),
        ).join('');
        g.fillText(line, 200 * s, (330 + i * 38) * s);
      }
      // A photo on the page (noise compresses as badly as one): a 4K capture is then a few MB,
      // as real screenshots with pictures in them are.
      const pw = Math.round(520 * s);
      const ph = Math.round(300 * s);
      const photo = g.createImageData(pw, ph);
      let seed = 7;
      for (let i = 0; i < photo.data.length; i += 4) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        photo.data[i] = 90 + (seed & 63);
        photo.data[i + 1] = 120 + ((seed >> 6) & 63);
        photo.data[i + 2] = 60 + ((seed >> 12) & 63);
        photo.data[i + 3] = 255;
      }
      g.putImageData(photo, Math.round(880 * s), Math.round(230 * s));
      const blob = await canvas.convertToBlob({ type: 'image/png' });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) {
        binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      }
      return btoa(binary);
    },
    [width, height] as const,
  );
  return Buffer.from(base64, 'base64');
}
