// The window sizes the renderer tests check layout at, and how a test that is not about layout
// runs at one of them. Layout (axe, nothing cut off, positions, screenshots) is checked at a tray
// popover's size (360×520, where things break first) and the default window's (480×640). A test
// of behaviour (clicks, uploads, queue states, focus) does the same steps at either size, so it
// runs once, at 360×520; where it checks axe on a state it reached, it checks at both sizes there
// (axeAtSizes) rather than walking the whole way twice.
import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { axeViolations } from './browser';

export const SIZES = [
  [360, 520],
  [480, 640],
] as const;

type Declare = (name: string, fn: () => Promise<void>, timeout?: number) => void;

/**
 * Inside a `describe.each(SIZES)`: declares a behaviour test at 360×520 only. At the other size
 * nothing is declared (not a skipped test): the test exists once, and says so by its name's size.
 */
export function itOnce(width: number): Declare {
  return width === SIZES[0][0] ? (name, fn, timeout) => it(name, fn, timeout) : () => undefined;
}

/** axe's violations on the page as it is now, at each of SIZES; the window's size is put back. */
export async function axeAtSizes(page: Page): Promise<string[]> {
  const before = page.viewportSize();
  const violations: string[] = [];
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    for (const v of await axeViolations(page)) violations.push(`${width}×${height}: ${v}`);
  }
  if (before) await page.setViewportSize(before);
  return violations;
}

/** For a `describe.each` whose tests are all of behaviour: the small size alone. */
export const SMALL_ONLY = [SIZES[0]] as const;

/** Every control that sticks out of the window, or is clipped by a box it sits in. */
export async function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? (el as HTMLInputElement).id).trim().slice(0, 30)}"`;
    for (const el of document.querySelectorAll('button, input, select, textarea, a, h1')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || el.closest('.visually-hidden')) continue;
      if (r.left < -0.5 || r.right > width + 0.5)
        out.push(`${name(el)} spans ${Math.round(r.left)}–${Math.round(r.right)} of ${width}`);
    }
    for (const box of document.querySelectorAll('.app__main, .nav, .nav__list, .card, .group')) {
      if (box.scrollWidth > box.clientWidth + 1)
        out.push(`${box.className} scrolls sideways (${box.scrollWidth} > ${box.clientWidth})`);
    }
    return out;
  });
}
