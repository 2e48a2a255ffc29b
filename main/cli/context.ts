// How the CLI reaches the same workspaces, presets and keychain as the app: the app's user-data
// folder (TRAYSHARE_DATA_DIR overrides), the settings file through `conf`, tokens through keytar.
// Commands import this module only when they run: it loads zod, conf and keytar, which the
// scripting mode (`send --base-url`) does not need.

import { join } from 'node:path';
import type { AppService } from '../core/api';
import { loggedSecrets, loggedTransport } from '../core/log/logged-parts';
import { createLoggedAppService } from '../core/log/logged-service';
import { defaultUserDataDir } from '../core/paths';
import { QueueLockedError } from '../core/queue/queue-lock';
import { createKeychainStore } from '../core/secrets/keychain-store';
import { readStateView, type StateView } from '../core/service/state-view';
import { openSettingsService, type SettingsService } from '../core/settings/settings-service';
import { createNodeTransport } from '../core/upload/node-transport';
import { cliLog } from './cli-log';
import { capOptimizer } from './optimizer-cap';
import { say } from './terminal';
import { envToken } from './usage-error';

/** The CLI's queue journal and history live apart from the app's: one scheduler per journal. */
export const CLI_STATE = 'cli-state';

/** How a command wants the service. */
export interface CliServiceOptions {
  /** send's --max-wait, for the channel list. */
  listMaxWaitMs?: number;
  /** Commands that only look (`queue`, `history`) keep files waiting for a token as they are. */
  lookOnly?: boolean;
  /** `queue` and `history`: a queue another command holds is not waited for (withLookingService). */
  noWait?: boolean;
}

/** How long a command waits for a lock holder it cannot confirm (TRAYSHARE_LOCK_WAIT, seconds). */
function lockWaitMs(): number {
  const value = Number(process.env.TRAYSHARE_LOCK_WAIT);
  return Number.isFinite(value) && value >= 0 ? value * 1000 : 60_000;
}

function heldSince(error: QueueLockedError): string {
  return error.since === undefined ? '' : ` since ${new Date(error.since).toLocaleString()}`;
}

/**
 * Opens the CLI's queue; while another trayshare command works it, waits for it to finish. A
 * holder the OS confirms is that command (Linux, macOS) is waited for as long as it works; one
 * it cannot (Windows, a lock from an older version) only up to a bound: its pid may belong to
 * another program since a crash, and the wait would never end.
 */
export async function openCliService(opts: CliServiceOptions = {}): Promise<AppService> {
  // Its queue may send files of any size, before anything here knows their sizes.
  capOptimizer();
  let told = false;
  let toldStill = false;
  const started = Date.now();
  for (;;) {
    try {
      return await createLoggedAppService(
        {
          dataDir: defaultUserDataDir(),
          stateName: CLI_STATE,
          secrets: createKeychainStore(),
          transport: createNodeTransport(),
          tokenOverride: envToken(),
          ...(opts.listMaxWaitMs !== undefined ? { listMaxWaitMs: opts.listMaxWaitMs } : {}),
          keepTokenWaits: opts.lookOnly === true,
        },
        cliLog(),
      );
    } catch (error) {
      if (!(error instanceof QueueLockedError)) throw error;
      // A command that only looks shows what was saved instead of waiting (withLookingService).
      if (opts.noWait) throw error;
      if (!told) say(`Waiting for another trayshare command (pid ${error.pid}) to finish…`);
      told = true;
      if (Date.now() - started >= lockWaitMs()) {
        if (!error.confirmed) {
          throw new QueueBusyError(
            `Gave up waiting: process ${error.pid} has held the upload queue${heldSince(error)}, and this system cannot tell whether it is still a trayshare command (its pid may belong to another program since a crash or a restart). If it is a trayshare command, let it finish or end it; if it is not, delete ${error.lockPath} and run the command again.`,
          );
        }
        if (!toldStill) {
          say(
            `Still waiting: trayshare (pid ${error.pid}) has been using the upload queue${heldSince(error)}. Press Ctrl+C to stop waiting (nothing of this command is sent), or end that command.`,
          );
        }
        toldStill = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** The queue stayed held by a process that could not be judged: exit 1, message only. */
export class QueueBusyError extends Error {
  override name = 'QueueBusyError';
}

/** Runs `body` with the service open, and always closes it (releasing the state lock). */
export async function withService<T>(
  body: (service: AppService) => Promise<T>,
  options: CliServiceOptions = {},
): Promise<T> {
  const service = await openCliService(options);
  const said = new Set<string>();
  sayRepairs(service, said);
  try {
    return await body(service);
  } finally {
    // A damaged channel list is found only when the command reads it.
    sayRepairs(service, said);
    await service.close();
  }
}

/** Said by the command that repaired it; the next one finds the files clean. */
function sayRepairs(service: AppService, said: Set<string>): void {
  for (const notice of service.repairNotices()) {
    if (said.has(notice)) continue;
    said.add(notice);
    say(notice);
  }
}

const unwritable: Record<string, string> = {
  EROFS: 'is on a read-only file system',
  ENOSPC: 'is on a full disk',
  EDQUOT: 'is on a disk where your quota is used up',
};

/**
 * For commands that only look (`queue`, `history`): on a read-only or full disk, where the service
 * cannot open (it writes its lock, its journal and its history), they show what was saved.
 */
export async function withLookingService<T>(body: (view: StateView) => Promise<T>): Promise<T> {
  let service: AppService;
  try {
    service = await openCliService({ lookOnly: true, noWait: true });
  } catch (error) {
    const stateDir = join(defaultUserDataDir(), CLI_STATE);
    if (error instanceof QueueLockedError) {
      // Another command works the queue: its saved state, read without the lock, as it stands.
      say(
        `Another trayshare command (pid ${error.pid}) is using the upload queue: this is what it last saved, read-only, and it may be a moment old.`,
      );
      return body(await readStateView(stateDir, { holderWorking: true }));
    }
    const why = unwritable[(error as NodeJS.ErrnoException).code ?? ''];
    if (!why) throw error;
    say(
      `${stateDir} ${why}: this is what was saved there; nothing can be sent or changed until it can be written again.`,
    );
    return body(await readStateView(stateDir));
  }
  const said = new Set<string>();
  sayRepairs(service, said);
  try {
    return await body(service);
  } finally {
    sayRepairs(service, said);
    await service.close();
  }
}

/** Settings-only commands (login, presets…) need no queue, so they never wait for a send. */
/** The keychain as the CLI's commands use it, each call logged (never a secret). */
export function cliSecrets() {
  return loggedSecrets(createKeychainStore(), cliLog());
}

/** The CLI's HTTP, each request logged (never a secret). */
export function cliTransport() {
  return loggedTransport(createNodeTransport(), cliLog());
}

export function openCliSettings(): SettingsService {
  return openSettingsService({
    dir: defaultUserDataDir(),
    secrets: cliSecrets(),
    transport: cliTransport(),
  });
}
