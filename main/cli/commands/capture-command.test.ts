// `trayshare capture` where no OS tool gives the image back (Windows): it says so first, whatever
// the options, and says what to do instead; elsewhere the command line is checked as usual.
import { Command } from 'commander';
import { expect, it } from 'vitest';
import { UsageError } from '../usage-error';
import { NO_CLI_CAPTURE_ON_WINDOWS, registerCapture } from './capture-command';

function run(platform: NodeJS.Platform, args: string[]): Promise<unknown> {
  const program = new Command().exitOverride();
  registerCapture(program, platform);
  return program.parseAsync(['node', 'trayshare', 'capture', ...args]);
}

it('on Windows, says the command is not there and to use the tray’s Capture… or the shortcut', async () => {
  for (const args of [[], ['--preset', 'Team'], ['--window', '--screen']]) {
    const refused = run('win32', args);
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(NO_CLI_CAPTURE_ON_WINDOWS);
  }
  expect(NO_CLI_CAPTURE_ON_WINDOWS).toMatch(/macOS and Linux only/);
  expect(NO_CLI_CAPTURE_ON_WINDOWS).toMatch(/Capture… in Trayshare's tray menu/);
  expect(NO_CLI_CAPTURE_ON_WINDOWS).toMatch(/capture shortcut \(Ctrl\+Shift\+2/);
});

it('on Linux and macOS, the command line itself is checked first', async () => {
  for (const platform of ['linux', 'darwin'] as const) {
    await expect(run(platform, [])).rejects.toThrow(
      'Say where to share: exactly one of --preset or --workspace.',
    );
  }
});
