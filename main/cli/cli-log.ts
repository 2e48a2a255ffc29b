// The CLI's log: trayshare-cli.log in the "logs" folder of its data folder (beside the settings
// and its cli-state; on Linux and Windows that is also where the app's own log is), rotated like
// the app's. With --verbose every line also goes to stderr, where the CLI's messages go, so
// stdout stays the results (--json). Opened when a command runs: `--version` and `--help` load
// no logging library.

import { join } from 'node:path';
import type { FileLog } from '../core/log/file-log';
import type { Log } from '../core/log/log';
import { defaultUserDataDir } from '../core/paths';
import { proxyVariablesSet } from '../core/upload/proxy-variables';
import { say } from './terminal';

const CLI_LOG_NAME = 'trayshare-cli.log';

let current: FileLog | undefined;
let opening: Promise<void> | undefined;
/** Lines written while electron-log loads, in order; the open writes them after its start line. */
const early: [keyof Log, string][] = [];

function write(level: keyof Log, message: string): void {
  if (current) current[level](message);
  else if (opening) early.push([level, message]);
}

/** One object for the whole run: parts made before the log opens keep it and are heard. */
const forwarding: Log = {
  info: (message) => write('info', message),
  warn: (message) => write('warn', message),
  error: (message) => write('error', message),
};

/** The folder of the CLI's log files. */
function cliLogDir(): string {
  return join(defaultUserDataDir(), 'logs');
}

/**
 * Opens the log for this command and writes its start line (never its arguments: they name
 * files). Loading electron-log costs about 20 ms, so without --verbose the command does not
 * wait for it (bench/notes.md, start-up): its lines wait in order and are written once the log is
 * open, and the program awaits cliLogWritten() before it ends. With --verbose the lines are
 * echoed as they happen, in order with the CLI's own messages, so the command waits.
 */
export function openCliLog(verbose: boolean, command: string): Promise<void> {
  opening = (async () => {
    const [{ openFileLog }, { startLine }] = await Promise.all([
      import('../core/log/file-log'),
      import('../core/log/about'),
    ]);
    const log = openFileLog({
      dir: cliLogDir(),
      name: CLI_LOG_NAME,
      ...(verbose ? { echo: say } : {}),
    });
    log.info(`${startLine('cli')}; command: ${command}`);
    const proxy = proxyVariablesSet();
    // Scheme, host and port only (proxyForLog): never a user name or password.
    if (proxy.length > 0) log.info(`Proxy from the environment: ${proxy.join(', ')}`);
    for (const [level, message] of early.splice(0)) log[level](message);
    current = log;
  })();
  return verbose ? opening : Promise.resolve();
}

/** The command's log; silent before a command runs. */
export function cliLog(): Log {
  return forwarding;
}

/** Resolves once every line so far is in the log file (the program's last step). */
export function cliLogWritten(): Promise<void> {
  return opening ?? Promise.resolve();
}

/** `send --base-url` has no queue to watch: its outcome in one line, codes only (no names). */
export function logDirectOutcome(
  results: readonly { outcome: string; error: string | null }[],
  protocol: string,
): void {
  const counts = new Map<string, number>();
  for (const r of results) {
    const key = r.error ? `${r.outcome} (${r.error})` : r.outcome;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const parts = [...counts].map(([what, n]) => `${n} ${what}`).join(', ');
  const failed = results.some((r) => r.outcome !== 'delivered');
  cliLog()[failed ? 'warn' : 'info'](
    `Send --base-url via ${protocol}, ${results.length} file${results.length === 1 ? '' : 's'}: ${parts}`,
  );
}
