// `npm start`: launches Electron on this checkout after the Linux preflight
// (electron-preflight.mjs), passing any extra arguments on (`npm start -- --share FILE`).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProblemHere } from './electron-preflight.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The electron package downloads its binary on first use and returns the path.
const electronPath = createRequire(import.meta.url)('electron');

const problem = startProblemHere(electronPath);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}

const child = spawn(electronPath, [root, ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
