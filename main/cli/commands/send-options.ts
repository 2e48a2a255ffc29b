// What `trayshare send` is given and what it answers with, shared by its two modes
// (send-direct.ts, send-queued.ts).
import { type ShareTarget, targetByName } from '../../core/settings/target';
import type { FileResult } from '../result-lines';
import { DEFAULT_MAX_WAIT_S, type SendOptions } from '../send-flags';
import { UsageError } from '../usage-error';

export type { SendOptions } from '../send-flags';

export function maxWaitMs(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_WAIT_S * 1000;
  if (!/^\d{1,7}$/.test(value.trim())) {
    throw new UsageError('--max-wait is a whole number of seconds, e.g. --max-wait 600.');
  }
  return Number(value.trim()) * 1000;
}

export const seconds = (ms: number) => Math.ceil(ms / 1000);

/** The lines of a send, and, when the token or keychain stopped it, what to say and exit with. */
export interface SendOutcome {
  results: FileResult[];
  refused?: { code: number; said: string };
}

/** The saved preset, or workspace and channels, named on the command line. */
export async function savedTarget(options: SendOptions): Promise<ShareTarget> {
  // Looked up by name in the settings, whose errors list the names that exist.
  const { openCliSettings } = await import('../context');
  return targetByName(openCliSettings(), {
    ...(options.preset ? { preset: options.preset } : {}),
    ...(options.workspace
      ? { workspace: options.workspace, channels: options.channels ?? '' }
      : {}),
  });
}
