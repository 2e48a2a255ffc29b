// The engine in one process, uploading one file to the sink with and without a progress
// listener, alternating, so the listener's cost is seen apart from process start. Prints one
// JSON line (goals.ts ProgressCost). Run by the bench: tsx bench/clients/progress-cost.ts
//   <sink URL> <1 Gbit/s sink URL> <file> <runs>   (token in TRAYSHARE_TOKEN)
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { uploadOnce } from '../../main/core/upload/engine';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { median } from '../stats';

const [url, linkUrl, file, runsText] = process.argv.slice(2);
if (!url || !linkUrl || !file)
  throw new Error('usage: progress-cost <url> <link-url> <file> <runs>');
const runs = Number(runsText ?? 5);
const token = process.env.TRAYSHARE_TOKEN ?? '';
const transport = createNodeTransport();
const fileBytes = (await stat(file)).size;

/** One upload; with a listener, the events it got per second of upload. */
async function once(baseUrl: string, listen: boolean): Promise<{ ms: number; perSecond: number }> {
  let events = 0;
  const started = performance.now();
  const result = await uploadOnce(
    { baseUrl, token, channels: ['C0BENCH'], file: { path: file!, name: basename(file!) } },
    { transport, ...(listen ? { onProgress: () => void events++ } : {}) },
  );
  const ms = performance.now() - started;
  if (result.kind !== 'delivered') throw new Error(`upload ${result.kind}`);
  return { ms, perSecond: events / (ms / 1000) };
}

// A warm-up, so both sides run with the same code compiled.
await once(url, true);
const withMs: number[] = [];
const withoutMs: number[] = [];
const rates: number[] = [];
for (let round = 0; round < runs; round++) {
  for (const listen of round % 2 === 0 ? [true, false] : [false, true]) {
    const r = await once(url, listen);
    (listen ? withMs : withoutMs).push(r.ms);
    if (listen) rates.push(r.perSecond);
  }
}
const link = await once(linkUrl, true);
process.stdout.write(
  `${JSON.stringify({
    fileBytes,
    runs,
    withMs: median(withMs),
    withoutMs: median(withoutMs),
    eventsPerSecond: median(rates),
    linkEventsPerSecond: link.perSecond,
  })}\n`,
);
