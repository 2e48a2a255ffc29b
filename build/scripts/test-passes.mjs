// `npm test`'s Vitest passes. The first (everything but the renderer and real-Electron tests,
// several files at a time) and the renderer pass (real Chromium, one file at a time, one shared
// browser) start together: most of the renderer pass waits on the page rather than the CPU,
// so on two cores the two passes overlap instead of queueing. Each pass runs beside its own
// keyring (with-keyring.mjs) and prints its output when it ends, so the two never interleave.
// The real-Electron pass runs after both. Exits non-zero when any pass failed.
// TRAYSHARE_TEST_PASSES=serial runs the passes one after the other (to time or debug one).
import { spawn } from 'node:child_process';

const vitest = ['node', 'build/scripts/with-keyring.mjs', 'vitest', 'run'];
const passes = [
  {
    name: 'first pass',
    args: [...vitest, '--exclude', 'test/renderer/**', '--exclude', 'test/e2e/**'],
  },
  { name: 'renderer pass', args: [...vitest, '--config', 'vitest.renderer.config.ts'] },
];
const e2e = { name: 'real-Electron pass', args: [...vitest, 'test/e2e', '--no-file-parallelism'] };

/** Runs one pass; its output is held and printed whole when `buffered`. */
function run(pass, buffered) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(pass.args[0], pass.args.slice(1), {
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: buffered ? { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' } : process.env,
    });
    const chunks = [];
    if (buffered) {
      child.stdout.on('data', (c) => chunks.push(c));
      child.stderr.on('data', (c) => chunks.push(c));
    }
    child.on('close', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      if (buffered) process.stdout.write(Buffer.concat(chunks));
      const ok = code === 0;
      console.log(
        `\ntest-passes: ${pass.name} ${ok ? 'passed' : `failed (${code ?? signal})`} in ${seconds} s\n`,
      );
      resolve(ok);
    });
  });
}

const serial = process.env.TRAYSHARE_TEST_PASSES === 'serial';
let ok = true;
if (serial) {
  for (const pass of passes) ok = (await run(pass, false)) && ok;
} else {
  console.log(
    `test-passes: ${passes.map((p) => p.name).join(' and ')} run together; each prints when it ends`,
  );
  const results = await Promise.all(passes.map((pass) => run(pass, true)));
  ok = results.every(Boolean);
}
ok = (await run(e2e, false)) && ok;
process.exit(ok ? 0 : 1);
