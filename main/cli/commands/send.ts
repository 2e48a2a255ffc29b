// `trayshare send`: saved workspaces and presets go through the durable queue (the same one the
// app runs, in the CLI's own state folder); `--base-url` is the scripting mode with no saved
// settings, which sends straight through the engine with its bounded automatic retries.
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { AppService } from '../../core/api';
import { looksLikeId, resolveChannelNames } from '../../core/conversations/channel-names';
import { unlistedMessage } from '../../core/conversations/conversation-types';
import { listConversations } from '../../core/conversations/conversations-list';
import { looksLikeUserId } from '../../core/conversations/people-names';
import { parseThread } from '../../core/conversations/thread-link';
import { listUsers } from '../../core/conversations/users-list';
import type { Protocol, QueueItem } from '../../core/model';
import { UNWRITABLE_JOURNAL_CODES } from '../../core/queue/unwritable-journal';
import { KeychainError, type KeychainProblem } from '../../core/secrets/secret-store';
import { type ShareTarget, targetByName } from '../../core/share/target';
import type { AttemptResult } from '../../core/upload/attempt';
import { normaliseChannels } from '../../core/upload/channels';
import { checkBaseUrl, checkToken } from '../../core/upload/credentials';
import { uploadWithRetries } from '../../core/upload/engine';
import { LINKS_NEED_FILES_READ } from '../../core/upload/file-links';
import { createNodeTransport } from '../../core/upload/node-transport';
import { uploadExternalGroup } from '../external-group';
import { type FileResult, fromAttempt, fromItem, report } from '../outcome';
import { printable } from '../printable';
import { checkStdinFilename, type Spooled, spoolStdin } from '../stdin-spool';
import { createProgressLine, formatBytes, say } from '../terminal';
import { EXIT_TOKEN_REFUSED, inCliWords, tokenWait, waitsForToken } from '../token-words';
import { envToken, UsageError } from '../usage-error';

interface SendOptions {
  baseUrl?: string;
  channels?: string;
  comment?: string;
  preset?: string;
  workspace?: string;
  filename?: string;
  thread?: string;
  protocol?: string;
  json?: boolean;
  maxWait?: string;
}

/** How long a send may wait for a service that asked to be left alone (Retry-After). */
const DEFAULT_MAX_WAIT_S = 300;

function maxWaitMs(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_WAIT_S * 1000;
  if (!/^\d{1,7}$/.test(value.trim())) {
    throw new UsageError('--max-wait is a whole number of seconds, e.g. --max-wait 600.');
  }
  return Number(value.trim()) * 1000;
}

const seconds = (ms: number) => Math.ceil(ms / 1000);

export function registerSend(program: Command): void {
  program
    .command('send')
    .description('Upload files and share each one to the channels')
    .argument('<files...>', 'files to share; - reads standard input (name it with --filename)')
    .option('--preset <name>', 'share with a saved preset')
    .option('--workspace <name>', 'a saved workspace (with --channels)')
    .option(
      '--base-url <url>',
      'no saved workspace: the service address (token from TRAYSHARE_TOKEN)',
    )
    .option(
      '--protocol <protocol>',
      "with --base-url: files.upload (default) or external (Slack's current upload protocol)",
    )
    .option(
      '--channels <list>',
      "channels or people, by name or ID, comma-separated, e.g. '#design-review,C0456,@alice,U0789'",
    )
    .option(
      '--comment <text>',
      'comment posted once, with the first file (with --protocol external: on the message that carries it, of up to 10 files)',
    )
    .option('--thread <link or ts>', 'reply in this thread: a message link or its ts (one channel)')
    .option('--filename <name>', 'file name for standard input (-)')
    .option('--json', 'one JSON line per file on stdout')
    .option(
      '--max-wait <seconds>',
      `the longest to wait when the service asks to (Retry-After); default ${DEFAULT_MAX_WAIT_S}`,
    )
    .action(async (files: string[], options: SendOptions) => {
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
    if (outcome.refused) say(outcome.refused.said);
    return outcome.refused?.code ?? code;
  } finally {
    await spooled?.remove();
  }
}

// Without a saved workspace: the contract's default maxFileBytes (schema.ts, not imported here
// so the scripting mode does not load zod).
const DEFAULT_MAX_FILE_BYTES = 1024 ** 3;

/** Standard input may be as large as the workspace's largest file, no larger. */
async function stdinLimit(options: SendOptions): Promise<{ maxBytes: number; where: string }> {
  if (options.baseUrl) return { maxBytes: DEFAULT_MAX_FILE_BYTES, where: 'Trayshare' };
  const { workspace } = await savedTarget(options);
  return { maxBytes: workspace.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, where: workspace.name };
}

/** The saved preset, or workspace and channels, named on the command line. */
async function savedTarget(options: SendOptions): Promise<ShareTarget> {
  // Looked up by name in the settings, whose errors list the names that exist.
  const { openCliSettings } = await import('../context');
  return targetByName(openCliSettings(), {
    ...(options.preset ? { preset: options.preset } : {}),
    ...(options.workspace
      ? { workspace: options.workspace, channels: options.channels ?? '' }
      : {}),
  });
}

/** The lines of a send, and, when the token or keychain stopped it, what to say and exit with. */
interface SendOutcome {
  results: FileResult[];
  refused?: { code: number; said: string };
}

/** With --base-url the token comes from TRAYSHARE_TOKEN: that is what to change. */
function directOutcome(results: FileResult[], attempts: AttemptResult[]): SendOutcome {
  const refused = attempts.some((a) => a.kind === 'failed' && waitsForToken(a.reason));
  if (!refused) return { results };
  return {
    results,
    refused: {
      code: EXIT_TOKEN_REFUSED,
      said: 'The service refused the token: set TRAYSHARE_TOKEN to a token it accepts.',
    },
  };
}

async function sendDirect(
  paths: string[],
  options: SendOptions,
  display: (path: string) => string,
): Promise<SendOutcome> {
  const baseUrl = options.baseUrl ?? '';
  const token = envToken();
  // Checked here as well as in the engine so nothing is read or sent before saying what is wrong.
  const base = checkBaseUrl(baseUrl);
  if (!base.ok) throw new UsageError(base.message);
  const tokenCheck = checkToken(token);
  if (!tokenCheck.ok) {
    throw new UsageError(
      tokenCheck.code === 'no_token'
        ? 'No token: set TRAYSHARE_TOKEN, or save a workspace with `trayshare login` and use --workspace.'
        : tokenCheck.message,
    );
  }
  const channels = normaliseChannels(options.channels ?? '');
  if (!channels.ok) throw new UsageError(channels.error);
  const protocol = parseProtocol(options.protocol);
  const transport = createNodeTransport();
  const ids = await directChannels(
    baseUrl,
    token ?? '',
    channels.channels,
    transport,
    maxWaitMs(options.maxWait),
  );
  let threadTs: string | undefined;
  if (options.thread !== undefined) {
    const thread = parseThread(options.thread);
    if (!thread.ok) throw new UsageError(thread.error);
    // A reply goes with channel_id, which takes no user ID (slackapi/bolt-js#2115).
    if (ids.some(looksLikeUserId)) {
      throw new UsageError(
        '--thread with a person replies in your DM with them: give the DM’s ID (D…, listed by `trayshare channels`) in --channels.',
      );
    }
    if (ids.length !== 1 || (thread.channel !== undefined && thread.channel !== ids[0])) {
      throw new UsageError(
        '--thread replies in one channel: give that channel alone in --channels.',
      );
    }
    threadTs = thread.ts;
  }
  const progress = createProgressLine();
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  const results: FileResult[] = [];
  const attempts: AttemptResult[] = [];
  try {
    if (protocol === 'external') {
      // Slack's protocol shares up to 10 files in one message with one comment.
      let current = '';
      const jobs = paths.map((path) => ({
        baseUrl,
        token: token ?? '',
        channels: ids,
        comment: options.comment,
        ...(threadTs ? { threadTs } : {}),
        file: { path, name: basename(display(path)) },
      }));
      let linksNoted = false;
      const outcomes = await uploadExternalGroup(jobs, {
        transport,
        signal: abort.signal,
        blockingReads: true,
        onLinksUnavailable: () => {
          if (linksNoted) return;
          linksNoted = true;
          progress.clear();
          say(LINKS_NEED_FILES_READ);
        },
        onFile: (index) => {
          current = jobs[index]?.file.name ?? '';
        },
        onProgress: (sent, total) =>
          progress.update(
            `${current}  ${total ? Math.floor((sent / total) * 100) : 100}%  ${formatBytes(sent)} of ${formatBytes(total)}`,
          ),
        onRetry: (attempt, delayMs, reason) => {
          progress.clear();
          say(
            `${current}: ${reason.message} Trying again in ${Math.ceil(delayMs / 1000)} s (attempt ${attempt + 1}).`,
          );
        },
      });
      progress.clear();
      return directOutcome(
        paths.map((path, i) => fromAttempt(display(path), outcomes[i]!)),
        outcomes,
      );
    }
    for (const [index, path] of paths.entries()) {
      const name = basename(display(path));
      const attempt = await uploadWithRetries(
        {
          baseUrl,
          token: token ?? '',
          channels: ids,
          // One message per file: the comment goes with the first file only.
          comment: index === 0 ? options.comment : undefined,
          ...(threadTs ? { threadTs } : {}),
          file: { path, name },
        },
        {
          transport,
          signal: abort.signal,
          // This process only uploads: reading on the main thread costs a third less CPU.
          blockingReads: true,
          onProgress: (sent, total) =>
            progress.update(
              `${name}  ${total ? Math.floor((sent / total) * 100) : 100}%  ${formatBytes(sent)} of ${formatBytes(total)}`,
            ),
          maxWaitMs: maxWaitMs(options.maxWait),
          onRetry: (attempt, delayMs, reason) => {
            progress.clear();
            say(
              `${name}: ${reason.message} Trying again in ${Math.ceil(delayMs / 1000)} s (attempt ${attempt + 1}).`,
            );
          },
        },
      );
      progress.clear();
      attempts.push(attempt);
      results.push(
        fromAttempt(
          display(path),
          tooLongAWait(protocol === 'files.upload' ? retired(attempt) : attempt, options),
        ),
      );
    }
  } finally {
    process.off('SIGINT', onSigint);
  }
  return directOutcome(results, attempts);
}

/**
 * With no saved workspace there is no cache: names are looked up straight from the service.
 * IDs alone never fetch the list, so a list the service refuses or limits cannot stop them
 * (a channel the app is not in is still named by the upload's not_in_channel).
 */
async function directChannels(
  baseUrl: string,
  token: string,
  entries: string[],
  transport: ReturnType<typeof createNodeTransport>,
  maxWait: number,
): Promise<string[]> {
  if (entries.every(looksLikeId)) {
    const ids = resolveChannelNames(entries, undefined);
    if (!ids.ok) throw new UsageError(ids.error);
    return ids.ids;
  }
  // `@name` is looked up among the people (users.list); the channel list is fetched only for
  // the other names, or when the people cannot be listed (a DM may still name its person).
  const isPerson = (e: string) => e.startsWith('@') && !looksLikeId(e.slice(1));
  const people = entries.some(isPerson)
    ? await listUsers(baseUrl, token, transport, { maxWaitMs: maxWait })
    : undefined;
  const needsList = entries.some((e) => !looksLikeId(e) && !(isPerson(e) && people?.ok));
  let listed: Awaited<ReturnType<typeof listConversations>> | undefined;
  if (needsList) {
    listed = await listConversations(baseUrl, token, transport, { maxWaitMs: maxWait });
    if (!listed.ok) {
      const why =
        listed.code === 'ratelimited' && listed.retryAfterMs !== undefined
          ? `The service rate-limited the channel list for ${seconds(listed.retryAfterMs)} s, longer than --max-wait (${seconds(maxWait)} s).`
          : listed.message;
      throw new UsageError(`${why}\nNames need the channel list; give channel IDs.`);
    }
    if (listed.waitedMs > 0) {
      say(`Waited ${seconds(listed.waitedMs)} s: the service rate-limited the channel list.`);
    }
  }
  const unlisted = listed?.ok ? listed.unlisted : [];
  const resolved = resolveChannelNames(
    entries,
    listed?.ok ? listed.conversations : undefined,
    unlisted,
    people && (people.ok ? { people: people.people } : { problem: people.message }),
  );
  if (!resolved.ok) throw new UsageError(resolved.error);
  // Said once, and only when the names resolved: a failed name already says it.
  if (unlisted.length > 0) say(unlistedMessage(unlisted));
  return resolved.ids;
}

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

function parseProtocol(value: string | undefined): Protocol {
  if (value === undefined || value === 'files.upload') return 'files.upload';
  if (value === 'external') return 'external';
  throw new UsageError('--protocol is files.upload or external.');
}

/** A transient failure whose next try lies past --max-wait: say so, with the service's delay. */
function tooLongAWait(attempt: AttemptResult, options: SendOptions): AttemptResult {
  if (attempt.kind !== 'failed' || attempt.reason.class !== 'transient') return attempt;
  const wait = attempt.reason.retryAfterMs;
  if (wait === undefined || wait <= maxWaitMs(options.maxWait)) return attempt;
  return {
    ...attempt,
    reason: {
      ...attempt.reason,
      message: `${attempt.reason.message} The next try would be in ${seconds(wait)} s, longer than --max-wait (${seconds(maxWaitMs(options.maxWait))} s): send it again later.`,
    },
  };
}

/** Scripts have no workspace to switch: say which option fixes it. */
function retired(attempt: AttemptResult): AttemptResult {
  if (attempt.kind !== 'failed' || attempt.reason.class !== 'retired') return attempt;
  return {
    ...attempt,
    reason: {
      ...attempt.reason,
      message: `This service no longer offers files.upload (it answered ${attempt.reason.code}). Send with --protocol external (Slack's current upload protocol) instead.`,
    },
  };
}

async function sendQueued(
  service: AppService,
  paths: string[],
  options: SendOptions,
  display: (path: string) => string,
): Promise<SendOutcome> {
  const resolved = await savedTarget(options);
  const target = resolved.preset
    ? { presetId: resolved.preset.id }
    : { workspaceId: resolved.workspace.id, channels: resolved.channels };
  if (!resolved.preset && resolved.channels.some((c) => !looksLikeId(c))) {
    await freshList(service, resolved.workspace.id);
  }

  const shared = await service.share({
    target,
    comment: options.comment,
    paths,
    ...(options.thread !== undefined ? { thread: options.thread } : {}),
  });
  const results: FileResult[] = shared.refused.map((r) => ({
    file: display(r.path),
    outcome: 'failed' as const,
    id: null,
    permalink: null,
    error: r.code ?? 'refused',
    message: r.reason,
  }));
  const mine = new Set(shared.items.map((i) => i.id));
  const finished = new Map<string, QueueItem>();
  const progress = createProgressLine();
  const abort = () => {
    for (const id of mine) if (!finished.has(id)) void service.cancelItem(id);
  };
  process.once('SIGINT', abort);
  const deadline = Date.now() + maxWaitMs(options.maxWait);
  const announced = new Map<string, number>();
  /** The ends of the waits already said. */
  const saidUntil = new Set<number>();
  const saidUnwritable = new Set<string>();
  let refusal: { message: string } | undefined;
  let waitingForPerson = false;
  const latest = new Map<string, QueueItem>();
  const done = new Promise<void>((resolve, reject) => {
    const check = (items: QueueItem[]) => {
      for (const item of items) {
        if (mine.has(item.id)) latest.set(item.id, item);
        if (
          mine.has(item.id) &&
          ['delivered', 'failed', 'unknown', 'cancelled'].includes(item.state)
        ) {
          finished.set(item.id, item);
        }
      }
      if (finished.size === mine.size) resolve();
    };
    service.on('queue-changed', (items) => {
      const active = items.find((i) => mine.has(i.id) && i.state === 'sending');
      if (active) {
        progress.update(
          `${active.name}  ${active.size ? Math.floor((active.sent / active.size) * 100) : 100}%  (${finished.size + 1} of ${mine.size})`,
        );
      }
      for (const waiting of items) {
        if (!mine.has(waiting.id) || waiting.state !== 'waiting') continue;
        if (UNWRITABLE_JOURNAL_CODES.has(waiting.error?.code ?? '')) {
          // The same folder for every file: said once, not again at each try.
          const message = waiting.error?.message ?? '';
          if (!saidUnwritable.has(message)) {
            saidUnwritable.add(message);
            progress.clear();
            say(printable(message));
          }
          continue;
        }
        if (!waiting.retryAt || !waiting.error || announced.get(waiting.id) === waiting.retryAt) {
          continue;
        }
        announced.set(waiting.id, waiting.retryAt);
        // Files that were in flight when the limit came join its pause: the pause is said
        // once, when it starts, never again as "next try in 0 s" when it is nearly over.
        const inS = seconds(waiting.retryAt - Date.now());
        const retryAt = waiting.retryAt;
        if (inS < 1 || [...saidUntil].some((until) => Math.abs(until - retryAt) < 1000)) continue;
        saidUntil.add(retryAt);
        // A line, not the progress line: it must reach a piped stderr too, and the wait is long
        // enough that a frozen percentage would look like a hang.
        progress.clear();
        say(
          waiting.error.code === 'ratelimited' || waiting.error.code === 'http_429'
            ? `${printable(waiting.name)}: rate limited by the service; next try in ${inS} s.`
            : `${printable(waiting.name)}: ${printable(waiting.error.message)} Next try in ${inS} s.`,
        );
      }
      check(items);
      // Past --max-wait the command stops holding the process; the rest stays queued.
      // Never while one is being sent: stopping then could leave it "may have been delivered".
      const left = items.filter((i) => mine.has(i.id) && !finished.has(i.id));
      const pastDeadline = (i: QueueItem) => i.state === 'waiting' && (i.retryAt ?? 0) > deadline;
      const noneSending = left.every((i) => i.state !== 'sending');
      if (noneSending && (refusal || left.some(pastDeadline))) {
        resolve();
      } else if (
        !waitingForPerson &&
        left.some((i) => pastDeadline(i) && UNWRITABLE_JOURNAL_CODES.has(i.error?.code ?? ''))
      ) {
        // Files of the share already uploaded wait for the held ones and are 'sending' all the
        // while; the queue knows when nothing more can happen until the person frees space.
        waitingForPerson = true;
        void service.settled().then(resolve);
      }
    });
    service.on('notice', (notice) => {
      progress.clear();
      say(printable(notice.message));
    });
    service.on('needs-token', (event) => {
      // Earlier uploads of another workspace waiting on theirs are not this send's concern.
      if (!shared.items.some((i) => i.workspaceId === event.workspaceId)) return;
      if (refusal) return;
      refusal = { message: event.message };
      // Files already on their way end first; the rest of the workspace waits for the person.
      // Each file still gets its line. Files of a share waiting for the stopped ones count as
      // 'sending': the queue says when nothing more can happen without the person.
      void service.settled().then(resolve, reject);
      void service.listQueue().then((items) => {
        check(items);
        const left = items.filter((i) => mine.has(i.id) && !finished.has(i.id));
        if (left.every((i) => i.state !== 'sending')) resolve();
      }, reject);
    });
    void service.listQueue().then(check);
  });
  try {
    await done;
  } finally {
    process.off('SIGINT', abort);
    progress.clear();
  }
  if (refusal) return withRefusal(results, shared.items, latest, refusal.message, display);
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

/**
 * The service refused the token, or the keyring could not give it: every file still gets its
 * line (delivered ones too), and the exit code says which (3: the keychain; 4: the token).
 */
function withRefusal(
  results: FileResult[],
  items: QueueItem[],
  latest: Map<string, QueueItem>,
  message: string,
  display: (path: string) => string,
): SendOutcome {
  const ends = items.map((item) => latest.get(item.id) ?? item);
  // A locked keyring is not a refused token: unlocking it, not a new login, fixes it.
  const keychain = ends.find((i) => i.error?.code.startsWith('keychain_') === true)?.error;
  for (const [index, item] of items.entries()) {
    const end = ends[index] as QueueItem;
    if (end.state === 'waiting' && keychain && end.error?.code.startsWith('keychain_')) {
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
