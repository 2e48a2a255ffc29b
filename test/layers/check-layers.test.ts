// The layer check of `npm test` (build/scripts/check-layers.mjs), shown failing: a copy of the
// repo's main/ and bench/ with a planted cycle and a planted upward import, each named in the
// check's output and failing its exit code, while the repo itself passes.
import { execFile } from 'node:child_process';
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkLayers } from '../../build/scripts/check-layers.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../..');
const script = join(repo, 'build/scripts/check-layers.mjs');
const run = promisify(execFile);

/** The check as `npm test` runs it, on `root`: its exit code and what it printed. */
async function runCheck(root: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, root]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('the layer check', () => {
  let copy: string;
  beforeEach(async () => {
    copy = await mkdtemp(join(tmpdir(), 'trayshare-layers-'));
    for (const folder of ['main', 'bench']) {
      await cp(join(repo, folder), join(copy, folder), {
        recursive: true,
        filter: (path) => !path.includes('node_modules') && !path.includes(`bench/results/`),
      });
    }
    await cp(join(repo, 'package.json'), join(copy, 'package.json'));
  });
  afterEach(async () => {
    await rm(copy, { recursive: true, force: true });
  });

  it('passes on the repo and on an untouched copy of its main/ and bench/', async () => {
    expect(checkLayers(repo)).toEqual([]);
    expect(await runCheck(copy)).toEqual({
      code: 0,
      output: 'layers: no import cycle, no upward import in main/core\n',
    });
  });

  it('fails on a planted cycle, a type-only import closing it', async () => {
    // bench/plot.ts imports results.ts; results.ts importing a type back closes a cycle, the
    // shape of auth-methods.ts's type import from app-service.ts that issue 37 found.
    await appendFile(
      join(copy, 'bench/results.ts'),
      "\nimport type { Chart } from './plot';\nexport type PlantedChart = Chart;\n",
    );
    const { code, output } = await runCheck(copy);
    expect(code).toBe(1);
    // One line per cycle, its files sorted: plot.ts reaches results.ts through goals.ts too.
    expect(output).toMatch(/^import cycle: .*bench\/plot\.ts <-> bench\/results\.ts.*$/m);
  });

  it('fails on a planted upward import in main/core', async () => {
    // A protocol (upload/) reaching up into the queue that runs it.
    await appendFile(
      join(copy, 'main/core/upload/attempt.ts'),
      "\nexport { openUploadQueue as plantedQueue } from '../queue/upload-queue';\n",
    );
    const { code, output } = await runCheck(copy);
    expect(code).toBe(1);
    expect(output).toContain(
      'upward import: main/core/upload/attempt.ts (protocols) imports main/core/queue/upload-queue.ts (queue, names, history)',
    );
  });

  it('fails when the plain model imports a room, and names the layers', async () => {
    await appendFile(
      join(copy, 'main/core/model.ts'),
      "\nimport type { AppServiceDeps } from './app-service';\nexport type PlantedDeps = AppServiceDeps;\n",
    );
    const { code, output } = await runCheck(copy);
    expect(code).toBe(1);
    expect(output).toContain(
      'upward import: main/core/model.ts (plain model) imports main/core/app-service.ts (composition root)',
    );
  });
});
