// `trayshare send --base-url`: the scripting mode with no saved settings. Nothing is queued:
// the files go straight through the workspace-less protocol, with bounded automatic retries.
import { statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { looksLikeId, resolveChannelNames } from '../../core/conversations/channel-names';
import { listConversations } from '../../core/conversations/conversations-list';
import { parseThread } from '../../core/conversations/thread-link';
import { listUsers } from '../../core/conversations/users-list';
import { loggedTransport } from '../../core/log/logged-parts';
import { MetadataProblem, planFile } from '../../core/metadata/strip';
import type { Protocol } from '../../core/model';
import { defaultUserDataDir } from '../../core/paths';
import { savedConcurrency, savedKeepMetadata } from '../../core/settings/saved-concurrency';
import type { AttemptResult, UploadJob } from '../../core/upload/attempt';
import { uploadWithRetries } from '../../core/upload/engine';
import { byteBudget } from '../../core/upload/external/byte-budget';
import { LINKS_NEED_FILES_READ } from '../../core/upload/file-links';
import { createNodeTransport } from '../../core/upload/node-transport';
import { type RateLimitLine, rateLimitLine } from '../../core/upload/rate-limit-line';
import { keepUploadHosts, UPLOAD_HOSTS_FILE } from '../../core/upload/upload-hosts';
import { normaliseChannels } from '../../portable/channels';
import { unlistedMessage } from '../../portable/conversation-types';
import { checkBaseUrl, checkToken } from '../../portable/credentials';
import { looksLikeUserId } from '../../portable/people-names';
import { cliLog } from '../cli-log';
import { uploadExternalGroup } from '../external-group';
import { capOptimizerFor } from '../optimizer-cap';
import { type FileResult, fromAttempt } from '../result-lines';
import { createProgressLine, formatBytes, say } from '../terminal';
import { EXIT_TOKEN_REFUSED, waitsForToken } from '../token-words';
import { envToken, UsageError } from '../usage-error';
import { maxWaitMs, type SendOptions, type SendOutcome, seconds } from './send-options';

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

export async function sendDirect(
  paths: string[],
  options: SendOptions,
  display: (path: string) => string,
): Promise<SendOutcome> {
  const { protocol, ...target } = await directTarget(options);
  await capOptimizerFor(paths);
  const strips =
    options.keepMetadata || savedKeepMetadata(defaultUserDataDir())
      ? new Map<string, DirectStrip>()
      : await stripPlans(paths, display);
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  const progress = createProgressLine();
  try {
    return await SEND_DIRECT[protocol]({
      ...target,
      paths,
      options,
      display,
      strips,
      signal: abort.signal,
      progress,
      // One line for the whole send: Slack's limit is the token's, so a 429 pauses every file,
      // and the files that waited go first, in order, within --max-wait.
      rateLimits: rateLimitLine({
        maxWaitMs: maxWaitMs(options.maxWait),
        onPause: (waitMs) => {
          progress.clear();
          say(`Rate limited by the service; next try in ${seconds(waitMs)} s.`);
        },
      }),
    });
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** Where the files go, checked before anything is read or sent. */
interface DirectTarget {
  protocol: Protocol;
  baseUrl: string;
  token: string;
  ids: string[];
  threadTs?: string;
  transport: ReturnType<typeof createNodeTransport>;
}

/** A file sent without its hidden details: the length sent and what was removed. */
interface DirectStrip {
  size?: number;
  removed: string[];
}

/**
 * Each photo and video's plan, worked out before anything is sent. One whose structure cannot
 * be read gets no length: its attempt then refuses it, saying why, and sends nothing.
 */
async function stripPlans(
  paths: string[],
  display: (path: string) => string,
): Promise<Map<string, DirectStrip>> {
  const strips = new Map<string, DirectStrip>();
  for (const path of paths) {
    try {
      const plan = await planFile(path, basename(display(path)));
      if (plan) strips.set(path, { size: plan.size, removed: plan.removed });
    } catch (error) {
      if (error instanceof MetadataProblem) strips.set(path, { removed: [] });
      // Anything else (a missing file) the attempt finds and says.
    }
  }
  return strips;
}

/** The job's file, with what its plan says. */
function jobFile(run: DirectRun, path: string, name: string): UploadJob['file'] {
  const strip = run.strips.get(path);
  if (!strip) return { path, name };
  return { path, name, strip: strip.size !== undefined ? { size: strip.size } : {} };
}

/** The result line, with what was removed when the file was delivered without it. */
function withRemoved(run: DirectRun, path: string, line: FileResult): FileResult {
  const strip = run.strips.get(path);
  return strip?.size !== undefined ? { ...line, removed: strip.removed } : line;
}

interface DirectRun extends Omit<DirectTarget, 'protocol'> {
  strips: Map<string, DirectStrip>;
  paths: string[];
  options: SendOptions;
  display: (path: string) => string;
  signal: AbortSignal;
  progress: ReturnType<typeof createProgressLine>;
  rateLimits: RateLimitLine;
}

async function directTarget(options: SendOptions): Promise<DirectTarget> {
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
  // Failures below HTTP (a proxy, DNS, TLS) go to the log as the queued sends' do.
  const transport = loggedTransport(createNodeTransport(), cliLog());
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
  return {
    protocol,
    baseUrl,
    token: token ?? '',
    ids,
    transport,
    ...(threadTs ? { threadTs } : {}),
  };
}

const SEND_DIRECT: Record<Protocol, (run: DirectRun) => Promise<SendOutcome>> = {
  external: sendAsGroups,
  'files.upload': sendEachFile,
};

/** Slack's protocol shares up to 10 files in one message with one comment. */
async function sendAsGroups(run: DirectRun): Promise<SendOutcome> {
  const { paths, options, display, progress, threadTs } = run;
  let current = '';
  const jobs = paths.map((path) => ({
    baseUrl: run.baseUrl,
    token: run.token,
    channels: run.ids,
    comment: options.comment,
    ...(threadTs ? { threadTs } : {}),
    file: jobFile(run, path, basename(display(path))),
  }));
  let linksNoted = false;
  const outcomes = await uploadExternalGroup(jobs, {
    // The person's setting, as the app's queue uses it.
    concurrency: savedConcurrency(defaultUserDataDir()),
    transport: run.transport,
    signal: run.signal,
    rateLimits: run.rateLimits,
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
  // The upload host this send learnt, for the next send's connections (send-early.ts).
  keepUploadHosts(join(defaultUserDataDir(), UPLOAD_HOSTS_FILE));
  return directOutcome(
    paths.map((path, i) =>
      withRemoved(run, path, fromAttempt(display(path), tooLongAWait(outcomes[i]!, options))),
    ),
    outcomes,
  );
}

/**
 * files.upload: one request, one message per file. The first file goes alone, with the comment,
 * so its message comes first; the rest go within the concurrency setting's byte budget, the
 * external protocol's rule (byte-budget.ts): small files up to ten a slot, large ones as many
 * as the setting, in the order given (their messages may then appear in any order). Outcomes
 * print in file order.
 */
async function sendEachFile(run: DirectRun): Promise<SendOutcome> {
  const { paths, options, display } = run;
  const attempts: AttemptResult[] = new Array(paths.length);
  const concurrency = savedConcurrency(defaultUserDataDir());
  const sendOne = async (index: number) => {
    attempts[index] = await uploadOneFile(run, index);
  };
  if (paths.length > 0) await sendOne(0);
  // One request per file and nothing to complete together: no cap but the budget's ten a slot.
  const bytes = byteBudget(concurrency, Number.POSITIVE_INFINITY);
  await Promise.all(
    paths.slice(1).map(async (path, i) => bytes(sizeOf(path), () => sendOne(i + 1))),
  );
  const results = paths.map((path, i) =>
    withRemoved(
      run,
      path,
      fromAttempt(display(path), tooLongAWait(retired(attempts[i]!), options)),
    ),
  );
  return directOutcome(results, attempts);
}

function uploadOneFile(run: DirectRun, index: number): Promise<AttemptResult> {
  const { paths, options, display, progress, threadTs } = run;
  const path = paths[index]!;
  const name = basename(display(path));
  return uploadWithRetries(
    {
      baseUrl: run.baseUrl,
      token: run.token,
      channels: run.ids,
      // One message per file: the comment goes with the first file only.
      comment: index === 0 ? options.comment : undefined,
      ...(threadTs ? { threadTs } : {}),
      file: jobFile(run, path, name),
    },
    {
      transport: run.transport,
      signal: run.signal,
      rateLimits: run.rateLimits,
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
  ).finally(() => progress.clear());
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

/** The file's size for the byte budget; unreadable counts as large (its try reports why). */
function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
