// `trayshare send`: its options, and which of its two modes runs. Saved workspaces and presets
// go through the durable queue (send-queued.ts); `--base-url` is the scripting mode with no
// saved settings, which sends straight through a protocol with bounded retries (send-direct.ts).
import type { Command } from 'commander';
import { DEFAULT_MAX_FILE_BYTES } from '../../core/settings/defaults';
import { logDirectOutcome } from '../cli-log';
import { report } from '../result-lines';
import { SEND_FLAGS } from '../send-flags';
import { checkStdinFilename, type Spooled, spoolStdin } from '../stdin-spool';
import { say } from '../terminal';
import { UsageError } from '../usage-error';
import { sendDirect } from './send-direct';
import { maxWaitMs, type SendOptions, savedTarget } from './send-options';
import { sendQueued } from './send-queued';

export function registerSend(program: Command): void {
  const command = program
    .command('send')
    .description('Upload files and share each one to the channels')
    .argument('<files...>', 'files to share; - reads standard input (name it with --filename)');
  for (const { flag, help } of SEND_FLAGS) command.option(flag, help);
  command.action(async (files: string[], options: SendOptions) => {
    process.exitCode = await send(files, options);
  });
}

async function send(files: string[], options: SendOptions): Promise<number> {
  const modes = [options.preset, options.workspace, options.baseUrl].filter(Boolean).length;
  if (modes !== 1) {
    throw new UsageError('Say where to share: exactly one of --preset, --workspace or --base-url.');
  }
  if (files.filter((f) => f === '-').length > 1) {
    throw new UsageError('Standard input (-) can be given once.');
  }
  if (files.includes('-') && !options.filename) {
    throw new UsageError('Name the file read from standard input with --filename.');
  }
  if (options.protocol !== undefined && !options.baseUrl) {
    throw new UsageError(
      '--protocol goes with --base-url; a saved workspace uses the protocol saved with `trayshare login --protocol`.',
    );
  }
  if (!options.preset && !options.channels) {
    throw new UsageError('--channels is needed with --workspace and --base-url.');
  }
  if (files.includes('-')) checkStdinFilename(options.filename ?? '');
  maxWaitMs(options.maxWait);
  let spooled: Spooled | undefined;
  try {
    const paths: string[] = [];
    for (const file of files) {
      if (file === '-') {
        spooled = await spoolStdin(options.filename ?? 'stdin', await stdinLimit(options));
        paths.push(spooled.path);
      } else {
        paths.push(file);
      }
    }
    const display = (path: string) =>
      spooled && path === spooled.path ? (options.filename ?? '-') : path;
    const outcome = options.baseUrl
      ? await sendDirect(paths, options, display)
      : await (await import('../context')).withService(
          (service) => sendQueued(service, paths, options, display),
          { listMaxWaitMs: maxWaitMs(options.maxWait) },
        );
    // One line per file whatever happened; then what the person must do, and its exit code.
    const code = report(outcome.results, options.json === true);
    // A queued send is logged by the queue's own events (core/log/activity-log.ts).
    if (options.baseUrl) logDirectOutcome(outcome.results, options.protocol ?? 'files.upload');
    if (outcome.refused) say(outcome.refused.said);
    return outcome.refused?.code ?? code;
  } finally {
    await spooled?.remove();
  }
}

/** Standard input may be as large as the workspace's largest file, no larger. */
async function stdinLimit(options: SendOptions): Promise<{ maxBytes: number; where: string }> {
  if (options.baseUrl) return { maxBytes: DEFAULT_MAX_FILE_BYTES, where: 'Trayshare' };
  const { workspace } = await savedTarget(options);
  return { maxBytes: workspace.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, where: workspace.name };
}
