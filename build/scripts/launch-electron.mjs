// `npm start`: launches Electron on this checkout after the Linux preflight
// (electron-preflight.mjs), passing any extra arguments on (`npm start -- --share FILE`).
// A missing binary is downloaded first; a failed download is explained, not thrown
// (electron-binary.mjs).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureElectronBinary } from './electron-binary.mjs';
import { startProblemHere } from './electron-preflight.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const electron = await ensureElectronBinary();
const problem = electron.problem ?? startProblemHere(electron.path);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}

const child = spawn(electron.path, [root, ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
