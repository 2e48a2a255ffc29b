// `trayshare capture`: a screenshot with the OS's own tool, shared like `send --preset` or
// `--workspace --channels` (through the CLI's queue, followed to its end), for scripts and
// keyboard launchers. macOS: screencapture; Linux: the desktop's screenshot portal. Windows has
// no tool that gives the image back to a command line: the Snipping Tool protocol routes its
// answer only to a packaged (MSIX) app's identity ("Unpackaged (Win32) callers cannot receive
// responses via redirect-uri", https://learn.microsoft.com/windows/apps/develop/launch/launch-snipping-tool),
// and the CLI, like the NSIS-installed app, has none. The app's own overlay is the way there.
// A cancelled capture prints nothing and exits 0: the person chose not to share.
import type { Command } from 'commander';
import type { CaptureSource } from '../../core/capture/capture-outcome';
import { capturerFor } from '../../core/capture/capturers';
import { report } from '../result-lines';
import { sendFlag } from '../send-flags';
import { say } from '../terminal';
import { UsageError } from '../usage-error';
import { maxWaitMs, type SendOptions } from './send-options';
import { sendQueued } from './send-queued';

interface CaptureOptions extends SendOptions {
  window?: boolean;
  screen?: boolean;
}

/** What `trayshare capture` says on Windows, before anything else about the command line. */
export const NO_CLI_CAPTURE_ON_WINDOWS =
  "trayshare capture works on macOS and Linux only: Windows' Snipping Tool gives its screenshot back only to packaged (MSIX) apps. On Windows, use Capture… in Trayshare's tray menu, or the capture shortcut (Ctrl+Shift+2 unless you changed it in Settings), and share it from the share sheet.";

export function registerCapture(program: Command, platform = process.platform): void {
  program
    .command('capture')
    .description("Take a screenshot with the OS's tool and share it (macOS and Linux)")
    .option(
      '--window',
      "pick a window (Linux: the desktop's dialog starts on windows where its portal offers that)",
    )
    .option('--screen', 'the whole screen at once (macOS: the main display), no picking')
    // The options it shares with `send`, declared there (send-flags.ts), in its own words.
    .option(...sendFlag('preset'))
    .option(...sendFlag('workspace'))
    .option(...sendFlag('channels', 'channels or people, by name or ID, comma-separated'))
    .option(...sendFlag('comment', 'comment posted with the screenshot'))
    .option(...sendFlag('thread'))
    .option(...sendFlag('json', 'one JSON line on stdout'))
    .option(...sendFlag('maxWait'))
    .action(async (options: CaptureOptions) => {
      process.exitCode = await capture(options, platform);
    });
}

function sourceOf(options: CaptureOptions): CaptureSource {
  if (options.window && options.screen) {
    throw new UsageError('Choose one of --window or --screen (neither: pick an area).');
  }
  return options.window ? 'window' : options.screen ? 'screen' : 'area';
}

async function capture(options: CaptureOptions, platform: NodeJS.Platform): Promise<number> {
  // First: on Windows no option can make it work, so nothing else about the command is asked.
  const capturer = capturerFor(platform);
  if (!capturer) throw new UsageError(NO_CLI_CAPTURE_ON_WINDOWS);
  const source = sourceOf(options);
  if ([options.preset, options.workspace].filter(Boolean).length !== 1) {
    throw new UsageError('Say where to share: exactly one of --preset or --workspace.');
  }
  if (options.workspace && !options.channels) {
    throw new UsageError('--channels is needed with --workspace.');
  }
  maxWaitMs(options.maxWait);
  const { withService } = await import('../context');
  return withService(
    async (service) => {
      const taken = await service.takeCapture(capturer, source);
      if (taken.kind === 'cancelled') return 0;
      if (taken.kind === 'failed') {
        say(taken.message);
        return 1;
      }
      const outcome = await sendQueued(service, [taken.path], options, (path) => path);
      const code = report(outcome.results, options.json === true);
      if (outcome.refused) say(outcome.refused.said);
      return outcome.refused?.code ?? code;
    },
    { listMaxWaitMs: maxWaitMs(options.maxWait) },
  );
}
