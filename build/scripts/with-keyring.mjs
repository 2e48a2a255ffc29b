// Runs the test command beside a real Secret Service on Linux (test/with-keyring.sh starts a
// throw-away gnome-keyring on a private D-Bus session); macOS and Windows have their keychain
// already, so the command runs as it is. A Node script so `npm test` needs no bash there.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The tests start the built CLI, the app's main process and helper scripts as new Node processes
// hundreds of times. Node 22.1+ keeps the bytecode it compiled for a module on disk when
// NODE_COMPILE_CACHE names a folder, and reuses it while the file is unchanged, so each process
// after the first skips most compiling (https://nodejs.org/api/module.html#module-compile-cache;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off). A folder the person set is kept.
const env = {
  ...process.env,
  NODE_COMPILE_CACHE:
    process.env.NODE_COMPILE_CACHE || join(tmpdir(), 'trayshare-test-compile-cache'),
};

const args = process.argv.slice(2);
const child =
  process.platform === 'linux'
    ? spawn('bash', ['test/with-keyring.sh', ...args], { stdio: 'inherit', env })
    : spawn(args[0], args.slice(1), { stdio: 'inherit', shell: process.platform === 'win32', env });
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
