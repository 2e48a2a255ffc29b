// Confirming a removal: the question says what goes with it, the danger button keeps its
// label on hover (light and dark), and the button under the pointer after asking is Keep.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../harness/server';
import { closeApp, openApp, showView } from './browser';
import { testBrowser } from './shared-browser';

let harness: Harness;
let browser: Browser;

beforeAll(async () => {
  [harness, browser] = await Promise.all([startHarness(), testBrowser()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe.each([
  [360, 520, 'light'],
  [480, 640, 'dark'],
] as const)('at %i×%i (%s)', (width, height, scheme) => {
  it('says the presets go too, and keeps the Remove label readable on hover', async () => {
    // No transition: the colours read are the hover's own.
    const { page } = await openApp(browser, harness, { scheme, reducedMotion: 'reduce' });
    await page.setViewportSize({ width, height });
    await showView(page, 'settings');
    const ask = page.getByRole('button', { name: 'Remove workspace Acme' });
    await ask.click();
    const group = page.getByRole('group', {
      name: 'Remove Acme, its token and its 2 presets (“Design review”, “Random”)?',
    });
    await group.waitFor();
    // The pointer that asked lands on Keep's side, not on the button that removes.
    const keepBox = await group.getByRole('button', { name: 'Keep' }).boundingBox();
    const removeBox = await group.getByRole('button', { name: 'Remove' }).boundingBox();
    expect(keepBox!.x).toBeLessThan(removeBox!.x);

    const remove = group.getByRole('button', { name: 'Remove' });
    await remove.hover();
    // Computed colours as RGB, whatever notation (color-mix gives color(srgb …)).
    const colours = await remove.evaluate((el) => {
      const rgb = (css: string) => {
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.fillStyle = css;
        ctx.fillRect(0, 0, 1, 1);
        return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
      };
      const style = getComputedStyle(el);
      return { text: rgb(style.color), background: rgb(style.backgroundColor) };
    });
    const [r, g, b] = colours.background as [number, number, number];
    const [tr, tg, tb] = colours.text as [number, number, number];
    // The label stands out from its background...
    expect(Math.abs(r - tr) + Math.abs(g - tg) + Math.abs(b - tb)).toBeGreaterThan(200);
    // ...which is still red: the hover style does not turn it into a plain grey button.
    expect(r).toBeGreaterThan(g + 60);
    await group.getByRole('button', { name: 'Keep' }).click();
    await closeApp(page);
  });
});
