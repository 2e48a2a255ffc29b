// `trayshare send --preset` / `--workspace`: the files go through the durable queue (the same
// one the app runs, in the CLI's own state folder), and the command follows them to their end.
import type { AppService, ShareRequest, ShareResult } from '../../core/api';
import { looksLikeId } from '../../core/conversations/channel-names';
import type { FailureReason, QueueItem } from '../../core/model';
import { UNWRITABLE_JOURNAL_CODES } from '../../core/queue/unwritable-journal';
import { KeychainError, type KeychainProblem } from '../../core/secrets/secret-store';
import { isFinishedState } from '../../portable/item-states';
import { printable } from '../printable';
import { type FileResult, fromItem } from '../result-lines';
import { createProgressLine, say } from '../terminal';
import { EXIT_TOKEN_REFUSED, inCliWords, tokenWait, waitsForToken } from '../token-words';
import { UsageError } from '../usage-error';
import {
  maxWaitMs,
  type SendOptions,
  type SendOutcome,
  savedTarget,
  seconds,
} from './send-options';

/**
 * Names resolve through the saved list when it is fresh. Otherwise it is fetched now, waiting
 * out a Retry-After within --max-wait (the service was opened with it), and the wait is said.
 */
async function freshList(service: AppService, workspaceId: string): Promise<void> {
  const saved = await service.listConversations(workspaceId, {});
  if (!saved.refreshing) return;
  const fetched = await service.listConversations(workspaceId, { wait: true });
  if (fetched.waitedMs) {
    say(`Waited ${seconds(fetched.waitedMs)} s: the service rate-limited the channel list.`);
  }
  if (fetched.problem && !fetched.conversations) {
    throw new UsageError(
      `${fetched.problem.message}\nNames need the channel list; give channel IDs.`,
    );
  }
}

export async function sendQueued(
  service: AppService,
  paths: string[],
  options: SendOptions,
  display: (path: string) => string,
): Promise<SendOutcome> {
  const request = await shareAsAsked(service, paths, options);
  // A workspace removed by another process (the app) while the files are on their way fails
  // them as removed: the queue learns it from the settings file's change event, as the app's
  // does. Watched from just before they are queued, so no removal falls between the queueing
  // and the watch, until the command stops following them.
  const stopWatching = service.watchSettings();
  try {
    return await followShare(service, await service.share(request), display, options);
  } finally {
    stopWatching();
  }
}

/** Follows the queued files to their end, or to what the person must do; a line for each. */
async function followShare(
  service: AppService,
  shared: ShareResult,
  display: (path: string) => string,
  options: SendOptions,
): Promise<SendOutcome> {
  const results: FileResult[] = shared.refused.map((r) => ({
    file: display(r.path),
    outcome: 'failed' as const,
    id: null,
    permalink: null,
    error: r.code ?? 'refused',
    message: r.reason,
  }));
  const mine = new Set(shared.items.map((i) => i.id));
  const follow: Follow = {
    mine,
    finished: new Map(),
    latest: new Map(),
    progress: createProgressLine(),
    said: { retryAt: new Map(), until: new Set(), unwritable: new Set() },
    deadline: Date.now() + maxWaitMs(options.maxWait),
    waitingForPerson: false,
  };
  const abort = () => {
    for (const id of mine) if (!follow.finished.has(id)) void service.cancelItem(id);
  };
  process.once('SIGINT', abort);
  try {
    await untilEnded(service, shared.items, follow);
  } finally {
    process.off('SIGINT', abort);
    follow.progress.clear();
  }
  const { latest, finished } = follow;
  if (follow.refusal) {
    return withRefusal(results, shared.items, latest, follow.refusal, display);
  }
  // Files already uploaded wait for the share's files held by an unwritable journal: say why.
  const held = [...latest.values()].find((i) =>
    UNWRITABLE_JOURNAL_CODES.has(i.error?.code ?? ''),
  )?.error;
  for (const item of shared.items) {
    const end = finished.get(item.id) ?? latest.get(item.id) ?? item;
    const why = held && end.state === 'sending' && !end.error ? { ...end, error: held } : end;
    results.push(fromItem(display(item.path), why));
  }
  return { results };
}

/** The share of the preset, or of the workspace and channels, as the options name them. */
async function shareAsAsked(
  service: AppService,
  paths: string[],
  options: SendOptions,
): Promise<ShareRequest> {
  const resolved = await savedTarget(options);
  const target = resolved.preset
    ? { presetId: resolved.preset.id }
    : { workspaceId: resolved.workspace.id, channels: resolved.channels };
  if (!resolved.preset && resolved.channels.some((c) => !looksLikeId(c))) {
    await freshList(service, resolved.workspace.id);
  }
  return {
    target,
    comment: options.comment,
    paths,
    ...(options.thread !== undefined ? { thread: options.thread } : {}),
    // Only when asked: without it, the keepMetadata preference decides.
    ...(options.keepMetadata ? { keepMetadata: true } : {}),
  };
}

/** What the command knows of its files while it follows them, and what it has said. */
interface Follow {
  mine: Set<string>;
  finished: Map<string, QueueItem>;
  latest: Map<string, QueueItem>;
  progress: ReturnType<typeof createProgressLine>;
  said: {
    /** The retry time said for each file. */
    retryAt: Map<string, number>;
    /** The ends of the waits already said. */
    until: Set<number>;
    unwritable: Set<string>;
  };
  /** --max-wait's end (epoch ms). */
  deadline: number;
  waitingForPerson: boolean;
  /** Why the share's workspace waits for the person; `held`: what an item of it waits with. */
  refusal?: { message: string; held?: FailureReason };
}

/**
 * What a workspace of the share waits for, if the queue holds it for a token or the keychain:
 * one of its items waits with no time to try again. The queue starts none of the workspace's
 * files until then, and said so once, maybe before this command listened (an older item).
 */
function heldFor(items: QueueItem[], shared: QueueItem[]): FailureReason | undefined {
  const workspaces = new Set(shared.map((i) => i.workspaceId));
  return items.find(
    (i) =>
      workspaces.has(i.workspaceId) &&
      i.state === 'waiting' &&
      i.retryAt === undefined &&
      i.error?.class === 'credential',
  )?.error;
}

/** Until every file of the share has ended, --max-wait has passed, or the token was refused. */
function untilEnded(service: AppService, shared: QueueItem[], f: Follow): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const check = (items: QueueItem[]) => {
      for (const item of items) {
        if (f.mine.has(item.id)) f.latest.set(item.id, item);
        if (f.mine.has(item.id) && isFinishedState(item.state)) {
          f.finished.set(item.id, item);
        }
      }
      if (f.finished.size === f.mine.size) resolve();
    };
    service.on('queue-changed', (items) => {
      showProgress(items, f);
      sayWaits(items, f);
      check(items);
      // Past --max-wait the command stops holding the process; the rest stays queued.
      // Never while one is being sent: stopping then could leave it "may have been delivered".
      const left = items.filter((i) => f.mine.has(i.id) && !f.finished.has(i.id));
      const pastDeadline = (i: QueueItem) => i.state === 'waiting' && (i.retryAt ?? 0) > f.deadline;
      const noneSending = left.every((i) => i.state !== 'sending');
      if (noneSending && (f.refusal || left.some(pastDeadline))) {
        resolve();
      } else if (
        !f.waitingForPerson &&
        left.some((i) => pastDeadline(i) && UNWRITABLE_JOURNAL_CODES.has(i.error?.code ?? ''))
      ) {
        // Files of the share already uploaded wait for the held ones and are 'sending' all the
        // while; the queue knows when nothing more can happen until the person frees space.
        f.waitingForPerson = true;
        void service.settled().then(resolve);
      }
    });
    service.on('notice', (notice) => {
      f.progress.clear();
      say(printable(notice.message));
    });
    const refused = (message: string) => {
      if (f.refusal) return;
      f.refusal = { message };
      // Files already on their way end first; the rest of the workspace waits for the person.
      // Each file still gets its line. Files of a share waiting for the stopped ones count as
      // 'sending': the queue says when nothing more can happen without the person.
      void service.settled().then(resolve, reject);
      void service.listQueue().then((items) => {
        if (f.refusal) f.refusal.held ??= heldFor(items, shared);
        check(items);
        const left = items.filter((i) => f.mine.has(i.id) && !f.finished.has(i.id));
        if (left.every((i) => i.state !== 'sending')) resolve();
      }, reject);
    };
    service.on('needs-token', (event) => {
      // Earlier uploads of another workspace waiting on theirs are not this send's concern.
      if (!shared.some((i) => i.workspaceId === event.workspaceId)) return;
      refused(event.message);
    });
    // The event is said once per workspace: an older item of it may have been refused before
    // this command listened, and then the queue holds these files without a word. The queue's
    // state says so (the event above covers a refusal from here on).
    void service.listQueue().then((items) => {
      const held = heldFor(items, shared);
      if (held) refused(held.message);
      check(items);
    }, reject);
  });
}

function showProgress(items: QueueItem[], f: Follow): void {
  const active = items.find((i) => f.mine.has(i.id) && i.state === 'sending');
  if (!active) return;
  f.progress.update(
    `${active.name}  ${active.size ? Math.floor((active.sent / active.size) * 100) : 100}%  (${f.finished.size + 1} of ${f.mine.size})`,
  );
}

/** Each wait of the share's files said once: a journal that cannot be written, a retry later. */
function sayWaits(items: QueueItem[], f: Follow): void {
  const { said, progress } = f;
  for (const waiting of items) {
    if (!f.mine.has(waiting.id) || waiting.state !== 'waiting') continue;
    if (UNWRITABLE_JOURNAL_CODES.has(waiting.error?.code ?? '')) {
      // The same folder for every file: said once, not again at each try.
      const message = waiting.error?.message ?? '';
      if (!said.unwritable.has(message)) {
        said.unwritable.add(message);
        progress.clear();
        say(printable(message));
      }
      continue;
    }
    if (!waiting.retryAt || !waiting.error || said.retryAt.get(waiting.id) === waiting.retryAt) {
      continue;
    }
    said.retryAt.set(waiting.id, waiting.retryAt);
    // Files that were in flight when the limit came join its pause: the pause is said
    // once, when it starts, never again as "next try in 0 s" when it is nearly over.
    const inS = seconds(waiting.retryAt - Date.now());
    const retryAt = waiting.retryAt;
    if (inS < 1 || [...said.until].some((until) => Math.abs(until - retryAt) < 1000)) continue;
    said.until.add(retryAt);
    // A line, not the progress line: it must reach a piped stderr too, and the wait is long
    // enough that a frozen percentage would look like a hang.
    progress.clear();
    say(
      waiting.error.code === 'ratelimited' || waiting.error.code === 'http_429'
        ? `${printable(waiting.name)}: rate limited by the service; next try in ${inS} s.`
        : `${printable(waiting.name)}: ${printable(waiting.error.message)} Next try in ${inS} s.`,
    );
  }
}

/**
 * The service refused the token, or the keyring could not give it: every file still gets its
 * line (delivered ones too), and the exit code says which (3: the keychain; 4: the token).
 */
function withRefusal(
  results: FileResult[],
  items: QueueItem[],
  latest: Map<string, QueueItem>,
  refusal: { message: string; held?: FailureReason },
  display: (path: string) => string,
): SendOutcome {
  const { message, held } = refusal;
  // Files the queue never started, held with their workspace, wait for what holds it.
  const ends = items.map((item) => {
    const end = latest.get(item.id) ?? item;
    return held && !end.error && (end.state === 'queued' || end.state === 'waiting')
      ? { ...end, error: held }
      : end;
  });
  // A locked keyring is not a refused token: unlocking it, not a new login, fixes it.
  const keychain = ends.find((i) => i.error?.code.startsWith('keychain_') === true)?.error;
  for (const [index, item] of items.entries()) {
    const end = ends[index] as QueueItem;
    if (
      (end.state === 'waiting' || end.state === 'queued') &&
      keychain &&
      end.error?.code.startsWith('keychain_')
    ) {
      results.push({
        ...fromItem(display(item.path), end),
        message: `${end.error.message} The file stays queued: unlock the keyring, then run \`trayshare queue --run\`.`,
      });
    } else if (end.state !== 'delivered' && end.error && waitsForToken(end.error)) {
      results.push({ ...fromItem(display(item.path), end), message: tokenWait(end.error) });
    } else {
      results.push(fromItem(display(item.path), end));
    }
  }
  if (keychain) {
    const problem = keychain.code.slice('keychain_'.length) as KeychainProblem;
    return {
      results,
      refused: {
        code: 3,
        said: `Keychain: ${new KeychainError(problem, keychain.message).message}`,
      },
    };
  }
  return { results, refused: { code: EXIT_TOKEN_REFUSED, said: inCliWords(message) } };
}
