// The engine in one process, uploading one file to the sink with and without a progress
// listener, alternating, so the listener's cost is seen apart from process start. Prints one
// JSON line (goals.ts ProgressCost). Run by the bench: tsx bench/clients/progress-cost.ts
//   <sink URL> <1 Gbit/s sink URL> <file> <runs>   (token in TRAYSHARE_TOKEN)
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { uploadOnce } from '../../main/core/upload/engine';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { pairedFigures, pairOrder } from '../paired';
import { median } from '../stats';

const [url, linkUrl, file, runsText] = process.argv.slice(2);
if (!url || !linkUrl || !file)
  throw new Error('usage: progress-cost <url> <link-url> <file> <runs>');
const runs = Number(runsText ?? 5);
const token = process.env.TRAYSHARE_TOKEN ?? '';
const transport = createNodeTransport();
const fileBytes = (await stat(file)).size;

/** One upload; with a listener, the events it got per second of upload. */
async function once(
  baseUrl: string,
  listen: boolean,
): Promise<{ ms: number; cpuMs: number; perSecond: number }> {
  let events = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await uploadOnce(
    { baseUrl, token, channels: ['C0BENCH'], file: { path: file!, name: basename(file!) } },
    { transport, ...(listen ? { onProgress: () => void events++ } : {}) },
  );
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (result.kind !== 'delivered') throw new Error(`upload ${result.kind}`);
  return { ms, cpuMs: (used.user + used.system) / 1000, perSecond: events / (ms / 1000) };
}

// A warm-up, so both sides run with the same code compiled.
await once(url, true);
const withMs: number[] = [];
const withoutMs: number[] = [];
const withCpu: number[] = [];
const withoutCpu: number[] = [];
const rates: number[] = [];
for (let round = 0; round < runs; round++) {
  for (const side of pairOrder(round)) {
    const listen = side === 'a';
    const r = await once(url, listen);
    (listen ? withMs : withoutMs).push(r.ms);
    (listen ? withCpu : withoutCpu).push(r.cpuMs);
    if (listen) rates.push(r.perSecond);
  }
}
// Round by round: both sides of a round ran back to back, under nearly the same load.
const paired = pairedFigures(withMs, withoutMs);
const link = await once(linkUrl, true);
process.stdout.write(
  `${JSON.stringify({
    fileBytes,
    runs,
    withMs: median(withMs),
    withoutMs: median(withoutMs),
    pairedRatio: paired.ratio,
    withCpuMs: median(withCpu),
    withoutCpuMs: median(withoutCpu),
    eventsPerSecond: median(rates),
    linkEventsPerSecond: link.perSecond,
  })}\n`,
);
