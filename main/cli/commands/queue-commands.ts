// `trayshare queue` and `trayshare history`: the CLI's own journal and history.
import type { Command } from 'commander';
import type { AppService } from '../../core/api';
import type { HistoryEntry, QueueItem } from '../../core/model';
import { UNWRITABLE_JOURNAL_CODES } from '../../core/queue/unwritable-journal';
import type { StateView } from '../../core/service/state-view';
import { destinationLabels } from '../../portable/people-names';
import { printable } from '../printable';
import { formatBytes, say } from '../terminal';
import { EXIT_TOKEN_REFUSED, inCliWords, tokenWait, waitsForToken } from '../token-words';

type Destination = (workspaceId: string, ids: readonly string[]) => string;

/**
 * `#general,@alice` from what the CLI's lists already hold (never fetched for a listing); IDs
 * where nothing is saved, or when only the saved state can be read.
 */
async function destinationsOf(
  view: StateView,
  workspaceIds: readonly string[],
): Promise<Destination> {
  const labels = new Map<string, Map<string, string>>();
  if ('listConversations' in view) {
    const service = view as AppService;
    for (const id of new Set(workspaceIds)) {
      try {
        const saved = await service.listConversations(id, { cachedOnly: true });
        labels.set(id, destinationLabels(saved.conversations, saved.people));
      } catch {
        // A workspace removed since: its rows show IDs.
      }
    }
  }
  return (workspaceId, ids) => ids.map((id) => labels.get(workspaceId)?.get(id) ?? id).join(',');
}

function queueLine(item: QueueItem, destination: Destination): string {
  const progress =
    item.state === 'sending' && item.size > 0
      ? ` ${Math.floor((item.sent / item.size) * 100)}%`
      : '';
  const why =
    item.error && waitsForToken(item.error)
      ? `  ${tokenWait(item.error)}`
      : item.error
        ? `  ${printable(item.error.message)}`
        : '';
  return `${item.id}\t${item.state}${progress}\t${printable(item.name)}\t${printable(destination(item.workspaceId, item.channels))}${why}`;
}

function historyLine(entry: HistoryEntry, destination: Destination): string {
  const when = new Date(entry.at).toISOString().replace('T', ' ').slice(0, 19);
  const detail = printable(entry.permalink ?? entry.error?.message ?? '');
  return `${when}\t${entry.outcome}\t${printable(entry.name)} (${formatBytes(entry.size)})\t${entry.workspaceName}: ${printable(destination(entry.workspaceId, entry.channels))}\t${detail}`;
}

async function printQueue(
  view: StateView,
  items: QueueItem[],
  options: { json?: boolean },
): Promise<void> {
  if (options.json) {
    process.stdout.write(`${JSON.stringify(items)}\n`);
    return;
  }
  if (items.length === 0) say('The queue is empty.');
  const destination = await destinationsOf(
    view,
    items.map((i) => i.workspaceId),
  );
  for (const item of items) process.stdout.write(`${queueLine(item, destination)}\n`);
}

/**
 * Opening the queue already resumed unsent items; --run (or a retry) waits until nothing more
 * can happen without the person (a refused token stops a workspace). Work left waiting on the
 * keyring (exit 3, as for every keychain problem), on a token or on disk space is not success.
 */
async function untilSettled(service: AppService): Promise<void> {
  service.on('needs-token', (e) => say(inCliWords(e.message)));
  service.on('notice', (e) => say(e.message));
  // As for `send`: a workspace the app removes meanwhile fails its files as removed.
  const stopWatching = service.watchSettings();
  try {
    await service.settled();
  } finally {
    stopWatching();
  }
  const stuck = (await service.listQueue()).filter(
    (i) => i.state === 'waiting' && i.error?.class === 'credential',
  );
  const heldForDisk = (await service.listQueue()).some(
    (i) => i.state === 'waiting' && UNWRITABLE_JOURNAL_CODES.has(i.error?.code ?? ''),
  );
  if (stuck.some((i) => i.error?.code.startsWith('keychain_'))) process.exitCode = 3;
  else if (stuck.some((i) => waitsForToken(i.error))) process.exitCode = EXIT_TOKEN_REFUSED;
  else if (stuck.length > 0 || heldForDisk) process.exitCode = 1;
}

export function registerQueueCommands(program: Command): void {
  program
    .command('queue')
    .description("Show the CLI's upload queue; --run finishes what an interrupted send left")
    .option('--run', 'send queued items (left by an interrupted send) and wait until done')
    .option('--retry <id>', 'send a failed, unknown or cancelled item again')
    .option('--cancel <id>', 'cancel an item')
    .option('--clear', 'remove finished items (they stay in history)')
    .option('--json')
    .action(
      async (options: {
        run?: boolean;
        retry?: string;
        cancel?: string;
        clear?: boolean;
        json?: boolean;
      }) => {
        const { withLookingService, withService } = await import('../context');
        if (!options.run && !options.retry && !options.cancel && !options.clear) {
          await withLookingService(async (view) =>
            printQueue(view, await view.listQueue(), options),
          );
          return;
        }
        await withService(async (service) => {
          if (options.cancel) await service.cancelItem(options.cancel);
          if (options.retry) await service.retryItem(options.retry);
          if (options.clear) await service.clearFinished();
          // Opening the queue already resumed unsent items; --run (or a retry) waits until
          // nothing more can happen without the person (a refused token stops a workspace).
          if (options.run || options.retry) await untilSettled(service);
          await printQueue(service, await service.listQueue(), options);
        });
      },
    );

  program
    .command('history')
    .description('Finished uploads, newest first')
    .option('--search <text>', 'match file name, channel, comment or error')
    .option('--limit <n>', 'at most this many', '50')
    .option('--json', 'a JSON array on stdout')
    .action(async (options: { search?: string; limit: string; json?: boolean }) => {
      const limit = Number.parseInt(options.limit, 10);
      if (!Number.isInteger(limit) || limit < 1)
        throw new Error('--limit takes a positive number.');
      const { withLookingService } = await import('../context');
      await withLookingService(async (service) => {
        const entries = await service.listHistory({
          ...(options.search ? { search: options.search } : {}),
          limit,
        });
        if (options.json) {
          process.stdout.write(`${JSON.stringify(entries)}\n`);
          return;
        }
        if (entries.length === 0) say('No uploads yet.');
        const destination = await destinationsOf(
          service,
          entries.map((e) => e.workspaceId),
        );
        for (const entry of entries) process.stdout.write(`${historyLine(entry, destination)}\n`);
      });
    });
}
