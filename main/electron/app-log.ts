// The app's log: trayshare.log in the OS's logs folder (app.getPath('logs'): ~/Library/Logs/
// Trayshare on macOS, the user-data folder's "logs" on Windows and Linux), rotated at 1 MB with
// one older file kept (core/log/file-log.ts). Its first line says what runs on what.
//
// Each line also goes to stdout, for whoever started the app from a terminal (and the boot
// checks). Every sink gets the same line, redacted first (core/log/redact.ts): the copy on stdout
// is as clean as the file.
import { startLine } from '../core/log/about';
import { type FileLog, openFileLog } from '../core/log/file-log';
import { redactSecrets } from '../core/log/redact';

const APP_LOG_NAME = 'trayshare.log';

export function openAppLog(logsDir: string): FileLog {
  const log = openFileLog({ dir: logsDir, name: APP_LOG_NAME });
  log.info(startLine('app'));
  return log;
}

/**
 * The app's `log` and `warn`: redacted once, then to stdout and to the log file once it is open
 * (`file()` is undefined before, when only stdout hears).
 */
export function appLogLines(
  file: () => FileLog | undefined,
  stdout: (line: string) => void = (line) => console.log(line),
): { info: (message: string) => void; warn: (message: string) => void } {
  const write = (level: 'info' | 'warn', message: string): void => {
    const line = redactSecrets(message);
    stdout(`[trayshare] ${line}`);
    file()?.[level](line);
  };
  return { info: (message) => write('info', message), warn: (message) => write('warn', message) };
}
