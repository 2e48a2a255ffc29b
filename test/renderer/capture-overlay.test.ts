// Windows' capture overlay page (renderer/overlay.html) in real Chromium, as the person meets it
// on a 1.5× display: their display's picture under a dimmed layer and a hint, a drag that shows
// the area and its size in the screenshot's pixels, Enter and Esc. The page's bridge is a
// stand-in recording what the page tells main (main's side: main/electron/capture-overlay.test.ts).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { axeViolations, screenshot } from './browser';
import { testBrowser } from './shared-browser';

interface Recorded {
  calls: { name: string; input?: unknown; drawn?: boolean }[];
}

describe('the capture overlay page', () => {
  let harness: Harness;
  let browser: Browser;

  beforeAll(async () => {
    [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  /** The overlay on a 1280×800 DIP display at 1.5×: a blue desktop, a light window on the right. */
  async function openOverlay(): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      deviceScaleFactor: 1.5,
    });
    await context.addInitScript(() => {
      const recorded: Recorded = { calls: [] };
      (window as unknown as { recorded: Recorded }).recorded = recorded;
      const drawn = () => document.querySelector('canvas')?.dataset.drawn === 'true';
      (window as unknown as { trayshareOverlay: unknown }).trayshareOverlay = {
        async image() {
          recorded.calls.push({ name: 'image' });
          // A desktop (blue) with a window on its right half (light, a title bar, text lines).
          const canvas = new OffscreenCanvas(1920, 1200);
          const g = canvas.getContext('2d')!;
          g.fillStyle = '#2f5d8a';
          g.fillRect(0, 0, 1920, 1200);
          g.fillStyle = '#f5f5f7';
          g.fillRect(960, 150, 900, 900);
          g.fillStyle = '#d2d2d7';
          g.fillRect(960, 150, 900, 48);
          g.fillStyle = '#3a3a3c';
          for (let i = 0; i < 12; i++) g.fillRect(1000, 260 + i * 56, 500 + ((i * 97) % 300), 20);
          const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
          return { jpeg: new Uint8Array(await blob.arrayBuffer()) };
        },
        async ready() {
          recorded.calls.push({ name: 'ready', drawn: drawn() });
        },
        async choose(input: { kind: string; key?: string }) {
          recorded.calls.push({ name: 'choose', input });
          return input.kind !== 'key' || input.key === 'Enter' || input.key === 'Escape';
        },
      };
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${harness.url}/overlay.html`);
    await page.waitForFunction(() =>
      (window as unknown as { recorded: Recorded }).recorded.calls.some((c) => c.name === 'ready'),
    );
    return { page, problems };
  }

  const calls = (page: Page) =>
    page.evaluate(() => (window as unknown as { recorded: Recorded }).recorded.calls);
  const chosen = async (page: Page) =>
    (await calls(page)).filter((c) => c.name === 'choose').map((c) => c.input);

  it('shows the display’s picture, dimmed, with what to do, and says it is ready once drawn', async () => {
    const { page, problems } = await openOverlay();
    expect((await calls(page)).map((c) => c.name)).toEqual(['image', 'ready']);
    expect((await calls(page))[1]?.drawn).toBe(true);
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toMatch(/Drag over an area, or press Enter for the whole screen\. Esc cancels\./);
    // The picture fills the window at the display's own pixels: the desktop left, the window right.
    const pixels = await page.evaluate(() => {
      const canvas = document.querySelector('canvas')!;
      const g = canvas.getContext('2d')!;
      const at = (x: number) => Array.from(g.getImageData(x, 600, 1, 1).data.slice(0, 3));
      const box = canvas.getBoundingClientRect();
      return {
        size: [canvas.width, canvas.height, box.width, box.height],
        left: at(100),
        right: at(1800),
      };
    });
    expect(pixels.size).toEqual([1920, 1200, 1280, 800]);
    // JPEG: near the colours drawn, not exactly them.
    const near = (got: number[], want: number[]) =>
      got.every((v, i) => Math.abs(v - want[i]!) <= 6);
    expect(near(pixels.left, [0x2f, 0x5d, 0x8a])).toBe(true);
    expect(near(pixels.right, [0xf5, 0xf5, 0xf7])).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows a dragged area with its size in the screenshot’s pixels and reports the drag', async () => {
    const { page, problems } = await openOverlay();
    const area = page.locator('.overlay__selection');
    await expect.poll(() => area.isVisible()).toBe(false);
    await page.mouse.move(300, 200);
    await page.mouse.down();
    await page.mouse.move(200, 120, { steps: 4 });
    await page.mouse.move(100, 50, { steps: 4 });
    // Dragged up and left: the area is still drawn from its top-left corner.
    expect(await area.boundingBox()).toEqual({ x: 100, y: 50, width: 200, height: 150 });
    expect(await area.textContent()).toBe('300 × 225');
    await page.mouse.move(1100, 700, { steps: 4 });
    await screenshot(page, 'capture-overlay', 'light');
    await page.mouse.move(100, 50, { steps: 4 });
    // The hint steps aside while an area is being chosen.
    expect(await page.getByRole('status').isVisible()).toBe(false);
    await page.mouse.up();
    await expect
      .poll(() => chosen(page))
      .toEqual([{ kind: 'drag', from: { x: 300, y: 200 }, to: { x: 100, y: 50 } }]);
    // Once main took the choice the overlay is closing: nothing more is sent.
    await page.keyboard.press('Enter');
    await page.waitForTimeout(100);
    expect(await chosen(page)).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('sends Enter and Esc, and nothing for other keys', async () => {
    for (const key of ['Enter', 'Escape']) {
      const { page } = await openOverlay();
      await page.keyboard.press('a');
      await page.keyboard.press('Tab');
      await page.keyboard.press(key);
      await expect.poll(() => chosen(page)).toEqual([{ kind: 'key', key }]);
      await page.context().close();
    }
  });
});
