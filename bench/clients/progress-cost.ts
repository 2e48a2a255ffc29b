// The engine in one process, uploading one file to the sink with and without a progress
// listener (and a control without, for the noise floor), in rotating order, so the listener's cost is seen apart from process start. Prints one
// JSON line (goals.ts ProgressCost). Run by the bench: tsx bench/clients/progress-cost.ts
//   <sink URL> <1 Gbit/s sink URL> <file> <runs>   (token in TRAYSHARE_TOKEN)
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { uploadOnce } from '../../main/core/upload/engine';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { pairedFigures } from '../paired';
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

// A warm-up, so every side runs with the same code compiled.
await once(url, true);
await once(url, false);
const withMs: number[] = [];
const withoutMs: number[] = [];
const controlMs: number[] = [];
const withCpu: number[] = [];
const withoutCpu: number[] = [];
const rates: number[] = [];
// Each round runs three uploads in an order that rotates: with a listener, without, and a
// control (without again). The control against "without" is the noise floor of this machine
// at this moment: a with/without gap no larger than it is not the listener's cost.
const SIDES = ['with', 'without', 'control'] as const;
for (let round = 0; round < runs; round++) {
  for (let i = 0; i < SIDES.length; i++) {
    const side = SIDES[(round + i) % SIDES.length]!;
    const r = await once(url, side === 'with');
    if (side === 'with') {
      withMs.push(r.ms);
      withCpu.push(r.cpuMs);
      rates.push(r.perSecond);
    } else if (side === 'without') {
      withoutMs.push(r.ms);
      withoutCpu.push(r.cpuMs);
    } else controlMs.push(r.ms);
  }
}
// Round by round: the sides of a round ran back to back, under nearly the same load.
const paired = pairedFigures(withMs, withoutMs);
const control = pairedFigures(controlMs, withoutMs);
const link = await once(linkUrl, true);
process.stdout.write(
  `${JSON.stringify({
    fileBytes,
    runs,
    withMs: median(withMs),
    withoutMs: median(withoutMs),
    pairedRatio: paired.ratio,
    controlRatio: control.ratio,
    withCpuMs: median(withCpu),
    withoutCpuMs: median(withoutCpu),
    eventsPerSecond: median(rates),
    linkEventsPerSecond: link.perSecond,
  })}\n`,
);
