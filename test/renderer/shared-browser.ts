// One Chromium for the whole renderer run: Vitest's global setup (global-setup.ts) launches it
// as a Playwright browser server and hands its address to every test file, which connects to it
// and opens its own contexts (each openApp is a fresh context: no cookies, storage or cache
// shared between tests or files). Closing the connection closes that file's contexts and leaves
// the browser to the other files. Run without that setup (a single file through the default
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
