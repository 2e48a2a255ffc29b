// Runs the test command beside a real Secret Service on Linux (test/with-keyring.sh starts a
// throw-away gnome-keyring on a private D-Bus session); macOS and Windows have their keychain
// already, so the command runs as it is. A Node script so `npm test` needs no bash there.
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const child =
  process.platform === 'linux'
    ? spawn('bash', ['test/with-keyring.sh', ...args], { stdio: 'inherit' })
    : spawn(args[0], args.slice(1), { stdio: 'inherit', shell: process.platform === 'win32' });
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
