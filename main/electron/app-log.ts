// The app's log file: trayshare.log in the OS's logs folder (app.getPath('logs'): ~/Library/Logs/
// Trayshare on macOS, the user-data folder's "logs" on Windows and Linux), rotated at 1 MB with
// one older file kept (core/log/file-log.ts). Its first line says what runs on what.
import { startLine } from '../core/log/about';
import { type FileLog, openFileLog } from '../core/log/file-log';

const APP_LOG_NAME = 'trayshare.log';

export function openAppLog(logsDir: string): FileLog {
  const log = openFileLog({ dir: logsDir, name: APP_LOG_NAME });
  log.info(startLine('app'));
  return log;
}
