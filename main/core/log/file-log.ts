// The log file, written by electron-log's file transport in both the app and the CLI. Not
// electron-log/main: importing it registers an ipcMain listener ('__ELECTRON_LOG__') that takes
// lines from any renderer without a sender check, which the app's IPC rules forbid (every channel
// is sender-checked in main/electron/ipc.ts); the app only needs a file, and gives the folder
// (app.getPath('logs')) itself. Not electron-log/node either: its default logger builds a remote
// transport, which loads node:https (with tls) and node:http, about 35 ms of CPU at every CLI
// start and their heap in the app's main process, for a transport the log never uses (it never
// leaves the machine). So each log is electron-log's own Logger with only its console and file
// transports, as createDefaultLogger in its src/node makes them (bench/notes.md, start-up).
//
// Rotation is electron-log's (maxSize and the default archiveLogFn, docs/transports/file.md in
// megahertz/electron-log): past maxSize the file is renamed NAME.old.log, replacing the one
// before, and a new one is begun, so at most two files of about maxSize each are kept.
import { readFile } from 'node:fs/promises';
import { join, parse } from 'node:path';
import Logger from 'electron-log/src/core/Logger.js';
import NodeExternalApi from 'electron-log/src/node/NodeExternalApi.js';
import consoleTransport from 'electron-log/src/node/transports/console.js';
import FileRegistry from 'electron-log/src/node/transports/file/FileRegistry.js';
import fileTransport from 'electron-log/src/node/transports/file/index.js';
import type { Log } from './log';
import { redactSecrets } from './redact';

const DEFAULT_LOG_MAX_BYTES = 1024 * 1024;

export interface FileLog extends Log {
  /** The folder the log files are in (Settings → About opens it). */
  readonly dir: string;
  /** The file being written now. */
  readonly file: string;
  /** The file the last rotation moved aside. */
  readonly oldFile: string;
  /** The last `count` lines written, oldest first, across the rotated file and this one. */
  tail(count: number): Promise<string[]>;
}

export interface FileLogOptions {
  dir: string;
  /** The file's name, e.g. "trayshare.log"; the rotated one is "trayshare.old.log". */
  name: string;
  maxBytes?: number;
  /** Each line also goes here, already redacted (the CLI's --verbose: stderr). */
  echo?: (line: string) => void;
}

// One registry of open files for every log, as electron-log/node shares one. It reports a file
// it cannot write as an 'error'. Given a listener, the file transport adds none of its own, which
// would print the error through the first log's console (the CLI's stderr with --verbose): a log
// that cannot be written must not change what a command says.
const registry = new FileRegistry();
registry.on('error', () => undefined);
const dependencies = { externalApi: new NodeExternalApi(), registry };

let instances = 0;

export function openFileLog(options: FileLogOptions): FileLog {
  const file = join(options.dir, options.name);
  const { name, ext } = parse(options.name);
  const oldFile = join(options.dir, `${name}.old${ext}`);
  // One instance per log: the app's, the CLI's, and each test's are kept apart.
  const logger = new Logger({
    dependencies,
    logId: `trayshare-${process.pid}-${++instances}`,
    transportFactories: { console: consoleTransport, file: fileTransport },
    variables: { processType: 'main' },
  });
  const transports = logger.transports;
  // The path is ours, but electron-log still looks up an app name for its path variables, from
  // the nearest package.json of the working folder: without one (an installed CLI run from any
  // folder, the app started from the desktop) no line would be written.
  transports.file.setAppName('Trayshare');
  transports.file.resolvePathFn = () => file;
  transports.file.maxSize = options.maxBytes ?? DEFAULT_LOG_MAX_BYTES;
  // Readable by the person only: the lines say where and when they shared.
  transports.file.writeOptions = { flag: 'a', mode: 0o600, encoding: 'utf8' };
  transports.file.format = '[{y}-{m}-{d} {h}:{i}:{s}.{ms}] [{level}] {text}';
  const echo = options.echo;
  if (echo) {
    transports.console.level = 'info';
    transports.console.format = '[{level}] {text}';
    transports.console.useStyles = false;
    transports.console.writeFn = ({ message }) => echo(message.data.map(String).join(' '));
  } else {
    transports.console.level = false;
  }
  logger.hooks.push((message) => ({
    ...message,
    data: message.data.map((part) => redactSecrets(typeof part === 'string' ? part : String(part))),
  }));

  return {
    dir: options.dir,
    file,
    oldFile,
    info: (message) => logger.info(message),
    warn: (message) => logger.warn(message),
    error: (message) => logger.error(message),
    async tail(count) {
      const lines: string[] = [];
      for (const path of [oldFile, file]) {
        const text = await readFile(path, 'utf8').catch(() => '');
        lines.push(...text.split(/\r?\n/).filter((line) => line !== ''));
      }
      return lines.slice(-count);
    },
  };
}
