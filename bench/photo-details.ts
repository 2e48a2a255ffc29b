// What removing photo and video details costs (main/core/metadata): `trayshare send` of the
// same file to the sink with and without --keep-metadata, alternating, in the same run. The
// issue's targets: a 12 MP JPEG with full EXIF at most 5 ms slower; a 500 MB MOV at most 1.02×
// the time, peak RSS under 64 MB. Printed only (`npm run bench -- --only photo-details`); a
// loaded machine moves both sides alike, so the difference of medians is what to read.
import { statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { planFile } from '../main/core/metadata/strip';
import { jpegSample, videoSample } from '../test/metadata/samples';
import { command } from './clients';
import { measure } from './measure';
import type { BenchContext } from './scenarios';
import { median } from './stats';

const JPEG_EXTRA_MS = 5;
const MOV_TIME_RATIO = 1.02;
const MOV_PEAK_RSS_KIB = 64 * 1024;

type Mode = 'as it is' | 'details removed';

function sendCommand(setup: BenchContext['setup'], url: string, file: string, mode: Mode) {
  const cmd = command('trayshare', setup, url, [file]);
  if (mode === 'as it is') cmd.args.splice(cmd.args.indexOf('--json'), 0, '--keep-metadata');
  return cmd;
}

export async function runPhotoDetails(ctx: BenchContext): Promise<void> {
  const { options, setup } = ctx;
  const sink = ctx.targets.sink;
  if (!options.only.includes('photo-details') || !sink) return;
  const dir = join(ctx.workDir, 'photo-details');
  await mkdir(dir, { recursive: true });
  const movBytes = options.quick ? 64 << 20 : 500 << 20;
  ctx.log(
    `Photo details: 12 MP JPEG with full EXIF, ${movBytes >> 20} MB MOV; send with and without --keep-metadata…`,
  );
  ctx.log(`  load average before: ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores`);
  try {
    const files = [
      jpegSample(dir, 'photo-12mp.jpg', 4000, 3000),
      videoSample(dir, 'clip-large.mov', movBytes),
    ];
    for (const file of files) {
      const plan = await planFile(file, basename(file));
      const sizes: Record<Mode, number> = {
        'as it is': statSync(file).size,
        'details removed': plan?.size ?? 0,
      };
      // One send of each, not counted: the first run after a build fills Node's compile cache.
      for (const mode of ['as it is', 'details removed'] as const) {
        const url = await sink.begin();
        await measure(sendCommand(setup, url, file, mode));
        await sink.end({ sizes: [sizes[mode]], protocol: 'files.upload' });
      }
      const samples: Record<Mode, { wallMs: number; cpuMs: number; rss: number }[]> = {
        'as it is': [],
        'details removed': [],
      };
      for (let round = 0; round < options.runs; round++) {
        const modes: Mode[] =
          round % 2 === 0 ? ['as it is', 'details removed'] : ['details removed', 'as it is'];
        for (const mode of modes) {
          const url = await sink.begin();
          const run = await measure(sendCommand(setup, url, file, mode));
          const failure =
            run.exitCode !== 0
              ? `exit ${run.exitCode}: ${run.stderr.slice(0, 200)}`
              : await sink.end({ sizes: [sizes[mode]], protocol: 'files.upload' });
          if (failure) ctx.log(`    ${basename(file)} ${mode}: failed (${failure})`);
          else samples[mode].push({ wallMs: run.wallMs, cpuMs: run.cpuMs, rss: run.peakRssKiB });
        }
      }
      const plain = median(samples['as it is'].map((s) => s.wallMs));
      const stripped = median(samples['details removed'].map((s) => s.wallMs));
      const rss = median(samples['details removed'].map((s) => s.rss));
      const cpu = (mode: Mode) => median(samples[mode].map((s) => s.cpuMs)).toFixed(0);
      const cpuLine = `CPU ${cpu('as it is')} vs ${cpu('details removed')} ms`;
      const name = basename(file);
      if (name.endsWith('.jpg')) {
        ctx.log(
          `  ${name}: as it is ${plain.toFixed(1)} ms, details removed ${stripped.toFixed(1)} ms: ${(stripped - plain).toFixed(1)} ms more (target at most +${JPEG_EXTRA_MS} ms); ${cpuLine}; medians of ${options.runs}`,
        );
      } else {
        ctx.log(
          `  ${name}: as it is ${plain.toFixed(0)} ms, details removed ${stripped.toFixed(0)} ms: ${(stripped / plain).toFixed(3)}× (target at most ${MOV_TIME_RATIO}×); peak RSS ${(rss / 1024).toFixed(1)} MB (target under ${MOV_PEAK_RSS_KIB / 1024} MB); ${cpuLine}`,
        );
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
