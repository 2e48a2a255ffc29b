// Runs npm scripts side by side (`npm test`'s checks and build: none reads what another writes)
// and prints each one's output whole when it ends, so the logs do not interleave. Exits 1 naming
// every script that failed. The type-check, knip and Biome are each one busy core for a while;
// together they keep both cores of a small CI machine busy instead of one at a time.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  process.stderr.write('usage: node build/scripts/run-side-by-side.mjs <npm script>...\n');
  process.exit(2);
}

/** `npm run <name>` through the npm that started this script, or the npm on PATH. */
function runScript(name) {
  const npmCli = process.env.npm_execpath;
  const [command, args, shell] = npmCli?.endsWith('.js')
    ? [process.execPath, [npmCli, 'run', '--silent', name], false]
    : // Windows starts npm.cmd only through a shell.
      ['npm', ['run', '--silent', name], process.platform === 'win32'];
  return new Promise((resolve) => {
    const started = Date.now();
    const chunks = [];
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], shell });
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    const end = (code, error) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const verdict = code === 0 ? 'passed' : `FAILED (${error ?? `exit ${code}`})`;
      process.stdout.write(`\n> ${name}: ${verdict} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(chunks));
      resolve(code === 0);
    };
    child.on('error', (error) => end(1, error.message));
    child.on('close', (code, signal) => end(code ?? 1, signal ?? undefined));
  });
}

const results = await Promise.all(names.map(runScript));
const failed = names.filter((_, i) => !results[i]);
if (failed.length > 0) {
  process.stderr.write(`\nfailed: ${failed.join(', ')}\n`);
  process.exit(1);
}
