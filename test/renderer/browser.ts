// Shared by the renderer tests: Debian's Chromium driven by playwright-core, pages opened on
// the browser harness, synthetic file drops, axe checks and screenshots.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve, win32 } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { View } from '../../preload/contract';
import type { Harness } from '../harness/server';

// The committed screenshots (shown in docs/interface.md) are rewritten only on request, so an ordinary
// test run leaves the work tree clean: TRAYSHARE_UPDATE_SCREENSHOTS=1 npm test.
const SCREENSHOTS = process.env.TRAYSHARE_UPDATE_SCREENSHOTS
  ? resolve(import.meta.dirname, '../screenshots')
  : resolve(import.meta.dirname, '../../test-results/screenshots');
// Pictures in docs/ (docs/images/<name>.png, README's among them) come on the same request.
const DOCS_IMAGES = process.env.TRAYSHARE_UPDATE_SCREENSHOTS
  ? resolve(import.meta.dirname, '../../docs/images')
  : resolve(import.meta.dirname, '../../test-results/docs-images');
export type Scheme = 'light' | 'dark';

/**
 * Which Chromium drives the renderer tests, first found wins: CHROMIUM_PATH; Playwright's own
 * (`npx playwright-core install chromium`, what CI on macOS and Windows uses); the distribution's
 * Chromium (Debian's /usr/bin/chromium here); an installed Google Chrome (GitHub's runners have
 * one on every OS). Nothing found is an error that says how to get one, never a skip.
 */
export function chromiumPath(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  exists: (path: string) => boolean = existsSync,
): string {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  const candidates: string[] = [];
  try {
    // Where Playwright installs its build for this playwright-core version (it may not be there).
    candidates.push(chromium.executablePath());
  } catch {
    // This platform has no Playwright build: the other places may still have a browser.
  }
  if (platform === 'linux') {
    candidates.push('/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome');
  } else if (platform === 'darwin') {
    candidates.push(
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    );
  } else if (platform === 'win32') {
    for (const base of [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA]) {
      if (base) candidates.push(win32.join(base, 'Google', 'Chrome', 'Application', 'chrome.exe'));
    }
  }
  const found = candidates.find((path) => exists(path));
  if (!found) {
    throw new Error(
      `No Chromium for the renderer tests: run \`npx playwright-core install chromium\` (or on Debian/Ubuntu \`npm run setup\`), or set CHROMIUM_PATH to a Chromium or Chrome. Looked in: ${candidates.join(', ')}`,
    );
  }
  return found;
}

/** How the renderer tests start Chromium, on its own or as the run's shared browser server. */
export function launchOptions(): { executablePath: string; args: string[] } {
  return {
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  };
}

/** A Chromium of its own (bench/capture.ts; the renderer tests use testBrowser()). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch(launchOptions());
}

export interface OpenPage {
  page: Page;
  /** Console errors and CSP violations seen so far: a clean page has none. */
  problems: string[];
}

/**
 * Pages closeApp handed back, per browser connection (one per test file), for the next openApp.
 * A new context and page cost about 450 ms before the app even loads (Chromium starts a renderer
 * process for each), against about 20 ms for a page that goes back to about:blank; over the
 * renderer pass's openApp calls that was the largest single cost (docs/testing.md). What a test
 * can change of a page is reset before it is used again: its document (a new one is loaded),
 * local and session storage, the listeners, the viewport, the emulated media and the default
 * timeout. A page opened with a device scale factor or a platform gets a context of its own and
 * is never reused, as those are a context's settings.
 */
const idle = new WeakMap<Browser, Page[]>();
const reusable = new WeakSet<Page>();

/** A fresh document of the app at 800×600 on the harness, once the app has loaded the settings. */
export async function openApp(
  browser: Browser,
  harness: Harness,
  opts: {
    scheme?: Scheme;
    hash?: string;
    reducedMotion?: 'reduce' | 'no-preference';
    /** navigator.platform as the page sees it ("MacIntel" for a Mac), for what the OS names. */
    platform?: string;
    /** Device pixels per CSS pixel (2 for a HiDPI screen). */
    deviceScaleFactor?: number;
  } = {},
): Promise<OpenPage> {
  const media = {
    colorScheme: opts.scheme ?? 'light',
    reducedMotion: opts.reducedMotion ?? 'no-preference',
  } as const;
  const plain = !opts.platform && !opts.deviceScaleFactor;
  let page = plain ? idle.get(browser)?.pop() : undefined;
  if (page) {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.emulateMedia({ ...media, media: null, forcedColors: null, contrast: null });
  } else {
    const context = await browser.newContext({
      viewport: { width: 800, height: 600 },
      ...media,
      ...(opts.deviceScaleFactor ? { deviceScaleFactor: opts.deviceScaleFactor } : {}),
    });
    if (opts.platform) {
      await context.addInitScript((platform) => {
        Object.defineProperty(Navigator.prototype, 'platform', { get: () => platform });
      }, opts.platform);
    }
    page = await context.newPage();
    if (plain) reusable.add(page);
  }
  // Fail at the step that went wrong, well inside the test's own time limit.
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${harness.url}/${opts.hash ? `#${opts.hash}` : ''}`);
  // The app marks its main area busy until the settings are loaded.
  await page.locator('main[aria-busy="false"]').waitFor();
  return { page, problems };
}

/**
 * Ends a test's page: a plain one goes back to about:blank, its storage cleared and its listeners
 * gone, for the next openApp of this file; any other closes with its context. A test that gives
 * its page what this cannot undo (page.clock, page.route, exposeFunction, an init script) ends
 * with page.context().close() instead.
 */
export async function closeApp(page: Page): Promise<void> {
  const browser = page.context().browser();
  if (!browser || !reusable.has(page) || page.isClosed()) {
    await page.context().close();
    return;
  }
  page.removeAllListeners();
  for (const other of page.context().pages()) if (other !== page) await other.close();
  // The app keeps one thing in the page's storage (renderer/src/views/last-destination.ts).
  await page
    .evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    })
    .catch(() => undefined);
  await page.goto('about:blank');
  const pages = idle.get(browser) ?? [];
  pages.push(page);
  idle.set(browser, pages);
}

const NAV_LABEL: Record<Exclude<View, 'share'>, string> = {
  drop: 'Drop files',
  queue: 'Queue',
  history: 'History',
  presets: 'Presets',
  settings: 'Settings',
};

export async function showView(page: Page, view: Exclude<View, 'share'>): Promise<void> {
  await page.getByRole('navigation').getByRole('button', { name: NAV_LABEL[view] }).click();
  await page.getByRole('heading', { level: 1, name: NAV_LABEL[view] }).waitFor();
}

/** Drops files on the drop zone the way a file manager would: dragenter, dragover, drop. */
export async function dropFiles(
  page: Page,
  files: { name: string; content: string }[],
): Promise<void> {
  await page.locator('.dropzone').evaluate((target, list) => {
    const data = new DataTransfer();
    for (const f of list) data.items.add(new File([f.content], f.name, { type: 'text/plain' }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(
        new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }),
      );
    }
  }, files);
}

/** axe-core's violations on the page as it is now, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Served by the harness from the page's origin: the page's CSP allows only 'self' scripts.
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.addScriptTag({ url: '/_harness/axe.js' });
  const violations = await page.evaluate(async () => {
    // A colour still in its 120 ms transition (a button just pressed) is not the colour a person
    // reads: the check waits for transitions to end. Nothing in the app animates forever.
    await Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    );
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: object,
          ) => Promise<{
            violations: { id: string; help: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    );
  });
  return violations;
}

export async function screenshot(page: Page, name: string, scheme: Scheme): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-${scheme}.png`) });
}

export async function docsImage(page: Page, name: string): Promise<void> {
  await mkdir(DOCS_IMAGES, { recursive: true });
  await page.screenshot({ path: join(DOCS_IMAGES, `${name}.png`) });
}
