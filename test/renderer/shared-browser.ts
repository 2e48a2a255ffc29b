// One Chromium for the whole renderer run: Vitest's global setup (global-setup.ts) launches it
// as a Playwright browser server and hands its address to every test file, which connects to it
// and opens its own contexts (openApp loads a fresh document; closeApp hands a plain page back,
// its storage cleared, for the file's next openApp: browser.ts). Closing the connection closes
// that file's contexts and leaves the browser to the other files. Run without that setup (a single file through the default
// config), a file launches a Chromium of its own, as before.
import { type Browser, chromium } from 'playwright-core';
import { inject } from 'vitest';
import { launchBrowser } from './browser';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's Playwright endpoint; '' when this run has none. */
    chromiumWsEndpoint: string;
  }
}

export function testBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumWsEndpoint');
  return endpoint ? chromium.connect(endpoint) : launchBrowser();
}
