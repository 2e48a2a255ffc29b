// What files.info tells about a file after a completion: its permalink, and the messages that
// carried it (`shares`), which say whether the completion shared it and give the message's ts.
// Slack's files.completeUploadExternal answers only `{"ok":true,"files":[{"id","title"}]}`
// (https://docs.slack.dev/reference/methods/files.completeUploadExternal), so links come from
// here, as python-slack-sdk's files_upload_v2 docstring points to files.info for step 3.
// files.info needs the files:read scope (https://docs.slack.dev/reference/methods/files.info).
import type { ServiceFile } from '../model';
import { parseRetryAfter, serviceFile } from './classify';
import type { TransportResponse } from './transport';

/** What one files.info answer says. */
export type FileInfo =
  | {
      kind: 'file';
      file: ServiceFile;
      /** The latest message ts per channel the file was shared to (`shares.public|private`). */
      sharedTo: Map<string, string>;
    }
  /** The token lacks files:read: neither links nor shares can be known through this token. */
  | { kind: 'no-scope' }
  /**
   * Anything else (no answer, another error, an unreadable body): nothing is known. A 429
   * carries how long the service asked to wait (Retry-After; 1 s when it names none).
   */
  | { kind: 'unreadable'; code: string; retryAfterMs?: number };

/** Said only for files known to be shared (share-check.ts withLinks), never for an unknown outcome. */
export const LINKS_NEED_FILES_READ =
  "Links to shared files need the token's files:read scope: add it to the app's scopes and sign in again to see them. The files were shared.";

function object(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * The shares of a file object, per channel: `{"public"|"private": {"C…": [{"ts", …}]}}`, as in
 * Slack's file object (https://docs.slack.dev/reference/objects/file-object) and node-slack-sdk's
 * FilesInfoResponse type (`Shares`, `Private`).
 */
function sharesOf(file: Record<string, unknown>): Map<string, string> {
  const found = new Map<string, string>();
  const shares = object(file.shares);
  for (const where of ['public', 'private']) {
    const byChannel = object(shares?.[where]);
    for (const [channel, list] of Object.entries(byChannel ?? {})) {
      if (!Array.isArray(list)) continue;
      const last = object(list[list.length - 1]);
      found.set(channel, typeof last?.ts === 'string' ? last.ts : '');
    }
  }
  return found;
}

export function readFileInfo(res: TransportResponse, now = Date.now()): FileInfo {
  if (res.status === 429) {
    // Slack's rate limit (https://docs.slack.dev/apis/web-api/rate-limits): wait Retry-After.
    const retryAfterMs = parseRetryAfter(res.headers['retry-after'], now) ?? 1000;
    return { kind: 'unreadable', code: 'ratelimited', retryAfterMs };
  }
  let answer: Record<string, unknown> | undefined;
  try {
    answer = object(JSON.parse(res.body));
  } catch {
    answer = undefined;
  }
  if (res.status !== 200 || !answer) return { kind: 'unreadable', code: `http_${res.status}` };
  if (answer.ok !== true) {
    const code = typeof answer.error === 'string' ? answer.error : 'invalid_answer';
    return code === 'missing_scope' ? { kind: 'no-scope' } : { kind: 'unreadable', code };
  }
  const file = object(answer.file);
  if (!file) return { kind: 'unreadable', code: 'invalid_answer' };
  return { kind: 'file', file: serviceFile(file), sharedTo: sharesOf(file) };
}

/** The file as delivered, with its link and the ts of the message in the first channel. */
export function withLink(
  delivered: ServiceFile,
  info: FileInfo,
  channels: readonly string[],
): ServiceFile {
  if (info.kind !== 'file') return delivered;
  const ts = channels.map((c) => info.sharedTo.get(c)).find((t) => t !== undefined && t !== '');
  return {
    ...delivered,
    ...(info.file.permalink ? { permalink: info.file.permalink } : {}),
    ...(ts ? { ts } : {}),
  };
}

/** Whether the files reached every channel ('shared'), none of them ('not-shared'), or unclear. */
export function sharedVerdict(
  infos: readonly FileInfo[],
  channels: readonly string[],
): 'shared' | 'not-shared' | 'unclear' {
  if (infos.some((i) => i.kind !== 'file')) return 'unclear';
  const reached = infos.map((i) =>
    i.kind === 'file' ? channels.filter((c) => i.sharedTo.has(c)).length : 0,
  );
  if (reached.every((n) => n === channels.length)) return 'shared';
  if (reached.every((n) => n === 0)) return 'not-shared';
  return 'unclear';
}
