import { chromium } from 'playwright-core';
import { startHarness } from '../test/harness/server';
import { launchOptions } from '../test/renderer/browser';
const harness = await startHarness();
for (const extra of [[], ['--renderer-process-limit=1'], ['--process-per-site']]) {
  const o = launchOptions();
  const browser = await chromium.launch({ ...o, args: [...o.args, ...extra] });
  const acc: Record<string, number> = {};
  const shared = await browser.newContext({ viewport: { width: 800, height: 600 } });
  for (let i = 0; i < 13; i++) {
    let t = performance.now();
    const lap = (k: string) => { const n = performance.now(); if (i >= 3) acc[k] = (acc[k] ?? 0) + (n - t) / 10; t = n; };
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } }); lap('newContext');
    const page = await context.newPage(); lap('newPage');
    await page.goto(`${harness.url}/`); lap('load');
    await page.locator('main[aria-busy="false"]').waitFor(); lap('settled');
    await context.close(); lap('close');
    const p2 = await shared.newPage(); lap('sharedNewPage');
    await p2.goto(`${harness.url}/`); lap('sharedLoad');
    await p2.locator('main[aria-busy="false"]').waitFor(); lap('sharedSettled');
    await p2.goto(`${harness.url}/`); lap('reload');
    await p2.locator('main[aria-busy="false"]').waitFor(); lap('reloadSettled');
    await p2.close(); lap('sharedClose');
  }
  console.log(JSON.stringify(extra), Object.entries(acc).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', '));
  await browser.close();
}
await harness.close();
process.exit(0);
