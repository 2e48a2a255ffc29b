// The `trayshare` command line, once the entry (trayshare.ts) has turned the compile cache on.
import { dirname } from 'node:path';
import { Command, CommanderError } from 'commander';
import { defaultUserDataDir } from '../core/paths';
import { RefusedError } from '../core/refused-error';
import { KeychainError } from '../core/secrets/secret-store';
import { SettingsError } from '../core/settings/settings-error';
import { APP_VERSION } from '../core/version';
import { cliLog, cliLogWritten, openCliLog } from './cli-log';
import { registerCapture } from './commands/capture-command';
import { registerChannelsCommand } from './commands/channels-command';
import { registerQueueCommands } from './commands/queue-commands';
import { registerSend } from './commands/send';
import { registerSettingsCommands } from './commands/settings-commands';
import { say } from './terminal';
import { inCliWords } from './token-words';
import { UsageError } from './usage-error';

const EXIT_CODES = `
Exit codes:
  0  every file was delivered (or the command did what it was asked)
  1  a file was not delivered (failed, may have been delivered, or still queued), or
     something else stopped the command (a full disk, the queue held by another process)
  2  the command was called wrongly (an option, a name or a channel to fix), or a photo
     or video looks damaged, so its location cannot be removed safely: it was not sent
     (send it with --keep-metadata to send it as it is)
  3  the keychain could not be used (locked, or never set up)
  4  the service refused the token (or it was removed after the files were queued):
     run \`trayshare login\` with a new one (with --base-url, set TRAYSHARE_TOKEN)`;

const program = new Command()
  .name('trayshare')
  .description('Share files to team channels from the command line.')
  .version(APP_VERSION, '-V, --version', 'print the version (as in package.json) and exit')
  .option('--verbose', 'also print the log lines to stderr (the log file is written either way)')
  .addHelpText('after', EXIT_CODES)
  .showHelpAfterError()
  .exitOverride()
  .hook('preAction', (root, command) =>
    openCliLog(root.opts<{ verbose?: boolean }>().verbose === true, commandPath(command)),
  );

/** "presets list": the command's names below the program's. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

registerSend(program);
registerCapture(program);
registerSettingsCommands(program);
registerQueueCommands(program);
registerChannelsCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander already printed its message (and help where useful).
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (
    error instanceof KeychainError ||
    (error instanceof RefusedError && error.cause instanceof KeychainError)
  ) {
    // A locked or missing keyring is not the caller's mistake: exit 3, never 2 or 0.
    say(`Keychain: ${error.message}`);
    process.exitCode = 3;
  } else if (diskProblem(error)) {
    say(diskProblem(error) as string);
    process.exitCode = 1;
  } else {
    // A share the core refused says the app's way out (Settings): here it is `trayshare login`.
    say(
      error instanceof RefusedError
        ? inCliWords(error.message)
        : error instanceof Error
          ? error.message
          : String(error),
    );
    // Input the person can fix (a name, a token, a channel list) is a usage error: exit 2.
    const usage =
      error instanceof UsageError ||
      error instanceof SettingsError ||
      error instanceof RefusedError;
    process.exitCode = usage ? 2 : 1;
  }
}
// Only the code and the kind: an error's message may name a file.
if (process.exitCode) cliLog().warn(`Ended with exit code ${process.exitCode}`);
await cliLogWritten();

/** A read-only or full disk under Trayshare's folders: name the folder and what to do. */
function diskProblem(error: unknown): string | undefined {
  const { code, path } = error as NodeJS.ErrnoException;
  // A write to a file already open (the queue journal, history) names no path: the CLI writes
  // only below its data folder then.
  const folder = typeof path === 'string' ? dirname(path) : defaultUserDataDir();
  if (code === 'EROFS') {
    return `Trayshare cannot write to ${folder}: it is on a read-only file system. Remount it read-write, or point TRAYSHARE_DATA_DIR at a writable folder.`;
  }
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return `Trayshare cannot write to ${folder}: the disk is full. Free some space there, then run the command again (queued files are kept).`;
  }
  if ((code === 'EACCES' || code === 'EPERM') && typeof path === 'string') {
    return `Trayshare may not write to ${folder} (permission denied). Fix the folder's permissions, or point TRAYSHARE_DATA_DIR at a writable folder.`;
  }
  return undefined;
}
