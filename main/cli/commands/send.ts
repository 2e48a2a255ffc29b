// `trayshare send`: saved workspaces and presets go through the durable queue (the same one the
// app runs, in the CLI's own state folder); `--base-url` is the scripting mode with no saved
// settings, which sends straight through the engine with its bounded automatic retries.
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { AppService } from '../../core/api';
import type { Protocol, QueueItem } from '../../core/model';
import { normaliseChannels } from '../../core/upload/channels';
import { checkBaseUrl, checkToken } from '../../core/upload/credentials';
import { type AttemptResult, uploadWithRetries } from '../../core/upload/engine';
import { uploadExternalWithRetries } from '../../core/upload/external-protocol';
import { createNodeTransport } from '../../core/upload/node-transport';
import { type FileResult, fromAttempt, fromItem, report } from '../outcome';
import { printable } from '../printable';
import { type Spooled, spoolStdin } from '../stdin-spool';
import { createProgressLine, formatBytes, say } from '../terminal';
import { envToken, UsageError } from '../usage-error';

interface SendOptions {
  baseUrl?: string;
  channels?: string;
  comment?: string;
  preset?: string;
  workspace?: string;
  filename?: string;
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
    .option('--channels <ids>', 'channel IDs, comma-separated, e.g. C0123,C0456')
    .option('--comment <text>', 'comment posted with each file')
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
  maxWaitMs(options.maxWait);
  let spooled: Spooled | undefined;
  try {
    const paths: string[] = [];
    for (const file of files) {
      if (file === '-') {
        spooled = await spoolStdin(options.filename ?? 'stdin');
        paths.push(spooled.path);
      } else {
        paths.push(file);
      }
    }
    const display = (path: string) =>
      spooled && path === spooled.path ? (options.filename ?? '-') : path;
    const results = options.baseUrl
      ? await sendDirect(paths, options, display)
      : await (await import('../context')).withService((service) =>
          sendQueued(service, paths, options, display),
        );
    return report(results, options.json === true);
  } finally {
    await spooled?.remove();
  }
}

async function sendDirect(
  paths: string[],
  options: SendOptions,
  display: (path: string) => string,
): Promise<FileResult[]> {
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
  const upload = protocol === 'external' ? uploadExternalWithRetries : uploadWithRetries;
  const transport = createNodeTransport();
  const progress = createProgressLine();
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  const results: FileResult[] = [];
  try {
    for (const path of paths) {
      const name = basename(display(path));
      const attempt = await upload(
        {
          baseUrl,
          token: token ?? '',
          channels: channels.channels,
          comment: options.comment,
          file: { path, name },
        },
        {
          transport,
          signal: abort.signal,
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
  return results;
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
): Promise<FileResult[]> {
  // Names are resolved by the settings service, whose errors list the names that exist.
  const { openCliSettings } = await import('../context');
  const resolved = openCliSettings().shareTarget({
    ...(options.preset ? { preset: options.preset } : {}),
    ...(options.workspace
      ? { workspace: options.workspace, channels: options.channels ?? '' }
      : {}),
  });
  const target = resolved.preset
    ? { presetId: resolved.preset.id }
    : { workspaceId: resolved.workspace.id, channels: resolved.channels };

  const shared = await service.share({ target, comment: options.comment, paths });
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
      const waiting = items.find((i) => mine.has(i.id) && i.state === 'waiting' && i.retryAt);
      if (waiting?.retryAt && waiting.error && announced.get(waiting.id) !== waiting.retryAt) {
        // A line, not the progress line: it must reach a piped stderr too, and the wait is long
        // enough that a frozen percentage would look like a hang.
        announced.set(waiting.id, waiting.retryAt);
        const inS = seconds(waiting.retryAt - Date.now());
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
      if (
        left.every((i) => i.state !== 'sending') &&
        left.some((i) => i.state === 'waiting' && (i.retryAt ?? 0) > deadline)
      ) {
        resolve();
      }
    });
    service.on('needs-token', (event) => {
      reject(
        new UsageError(
          `${event.message}\nThe files stay queued: run \`trayshare login\` with a new token, then \`trayshare queue --run\`.`,
        ),
      );
    });
    void service.listQueue().then(check);
  });
  try {
    await done;
  } finally {
    process.off('SIGINT', abort);
    progress.clear();
  }
  for (const item of shared.items) {
    const end = finished.get(item.id) ?? latest.get(item.id) ?? item;
    results.push(fromItem(display(item.path), end));
  }
  return results;
}
