// `npm run bench:capture [rounds]`: how long a 4K screenshot takes to show in the share sheet,
// the Linux path end to end in real Chromium through the browser harness. The stand-in portal
// (test/capture/test-portal.ts, on a private D-Bus bus) answers at once, so the figures are
// Trayshare's own work, in two spans:
//   - portal answer → thumbnail drawn: the Response signal sent, read by the portal client, the
//     PNG copied into the private folder, the share-requested event, the page asking for the
//     bytes (readCapture: binary over the harness's HTTP, as Electron's IPC carries them, with
//     no base64), decoding them once and halving them down onto the thumbnail's canvas;
//   - capture asked → thumbnail drawn: the same plus the portal call (what a shortcut press
//     costs on top of the person's own picking).
// Target: under 150 ms for the first span (issue 35). Printed, never asserted.
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { portalCapturer } from '../main/core/capture/capturers';
import { sampleScreenshot } from '../test/capture/sample-screenshot';
import { startTestPortal } from '../test/capture/test-portal';
import { startHarness } from '../test/harness/server';
import { launchBrowser, openApp } from '../test/renderer/browser';

const ROUNDS = Number(process.argv[2] ?? 15);
const [load] = loadavg();
const TARGET_MS = 150;

const [harness, browser, portal] = await Promise.all([
  startHarness(),
  launchBrowser(),
  startTestPortal(),
]);
const { page } = await openApp(browser, harness);
await page.setViewportSize({ width: 480, height: 640 });
const png = await sampleScreenshot(page, 3840, 2160);
portal.answer({ kind: 'file', png });
const capturer = portalCapturer(portal.address);

/**
 * When (epoch ms, sub-millisecond) the page drew the next thumbnail. A string: tsx names the
 * functions it compiles with a helper the page does not have.
 */
const nextDraw = () =>
  page.evaluate<number>(`new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!document.querySelector('canvas[data-drawn="true"]')) return;
      observer.disconnect();
      resolve(performance.timeOrigin + performance.now());
    });
    observer.observe(document.body, {
      subtree: true, childList: true, attributes: true, attributeFilter: ['data-drawn'],
    });
  })`);

/** The page's marks of the last preview (capture-preview.tsx), as epoch ms. */
const marks = () =>
  page.evaluate<Record<string, number>>(`Object.fromEntries(
    performance.getEntriesByType('mark')
      .filter((m) => m.name.startsWith('capture-preview:'))
      .map((m) => [m.name.slice(16), performance.timeOrigin + m.startTime]))`);

const fromAnswer: number[] = [];
const fromAsk: number[] = [];
const toSheet: number[] = [];
const bytesToPage: number[] = [];
const decode: number[] = [];
// One warm-up round: the first loads the D-Bus library and the page's code paths.
for (let round = 0; round <= ROUNDS; round += 1) {
  const drawn = nextDraw();
  const asked = performance.timeOrigin + performance.now();
  await harness.capture(capturer);
  const at = await drawn;
  if (round > 0) {
    const answered = performance.timeOrigin + portal.lastAnswerAt;
    const m = await marks();
    fromAnswer.push(at - answered);
    fromAsk.push(at - asked);
    toSheet.push((m.asked ?? at) - answered);
    bytesToPage.push((m.read ?? at) - (m.asked ?? at));
    decode.push(at - (m.read ?? at));
  }
  await page.evaluate('performance.clearMarks()');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await page.locator('canvas.capture-preview__thumb').waitFor({ state: 'detached' });
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const pick = (xs: number[], q: number) =>
  sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
const line = (label: string, xs: number[]) =>
  `${label.padEnd(34)} median ${pick(xs, 0.5).toFixed(1).padStart(6)} ms   p90 ${pick(xs, 0.9).toFixed(1).padStart(6)} ms   max ${Math.max(
    ...xs,
  )
    .toFixed(1)
    .padStart(6)} ms`;

console.log(
  `Load average before: ${load!.toFixed(2)} on ${availableParallelism()} cores${load! > availableParallelism() * 0.5 ? ' (noisy: other work was running)' : ''}`,
);
console.log(
  `Capture → share sheet, 3840×2160 PNG of ${(png.length / 1024 ** 2).toFixed(2)} MiB, ${ROUNDS} rounds after one warm-up (Chromium ${browser.version()}, 480×640 window)`,
);
console.log(line('portal answer → thumbnail drawn', fromAnswer));
console.log(line('capture asked → thumbnail drawn', fromAsk));
console.log('  where the first span goes:');
console.log(line('  answer → sheet asks for the bytes', toSheet));
console.log(line('  bytes to the page', bytesToPage));
console.log(line('  decode at thumbnail size, draw', decode));
console.log(
  `Target: portal answer → thumbnail under ${TARGET_MS} ms (median): ${pick(fromAnswer, 0.5) < TARGET_MS ? 'met' : 'NOT met'}`,
);

await browser.close();
await harness.close();
await portal.close();
