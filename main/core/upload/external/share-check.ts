// After a step 3 whose answer was unclear, and for links Slack's answer leaves out: files.info
// says whether each file reached its channels and gives its permalink (file-links.ts reads its
// answer). Slack adds shares asynchronously: a completion's answer, or a files.info just after
// it, may not list them yet ("completes the sharing of uploaded files asynchronously … consider
// polling the files.info API", Slack's SDK maintainer in slackapi/bolt-js#2115 and
// slackapi/python-slack-sdk#1329; the shares are `file.shares.public|private[channel][]` in
// slack-api-ref methods/files/files.info.json). So
// "shared" is looked for over a bounded window, and not seeing it proves nothing: the outcome
// then stays unknown and step 3 is never sent again (Slack documents no answer to a second
// completion, https://docs.slack.dev/reference/methods/files.completeUploadExternal).

import { apiUrl } from '../../../portable/credentials';
import type { ServiceFile } from '../../model';
import { defaultSleep } from '../../sleep';
import { eachAtMost } from '../attempt';
import { type FileInfo, readFileInfo, sharedVerdict, withLink } from '../file-links';
import { type Attempt, apiHeaders, formBody, MAX_FILES_PER_COMPLETION, send } from './request';

/**
 * How long files.info is asked after an unclear step 3, and the most a 429 of it is waited out:
 * the share-check window. docs/how-uploads-behave.md states it, and
 * test/docs/share-check-window.test.ts holds the docs to this value.
 */
export const SHARE_CHECK_WINDOW_MS = 30_000;

/**
 * When each look happens, as a share of the window: at once, then 1/30, 3/30, 7/30, 15/30 and
 * all of it (at 30 s: 1, 3, 7, 15 and 30 s), close together first, when a share usually appears.
 */
export const SHARE_CHECK_LOOKS_AT = [0, 1 / 30, 3 / 30, 7 / 30, 15 / 30, 1] as const;

function windowOf(a: Attempt): number {
  return Math.max(0, a.opts.shareCheckWindowMs ?? SHARE_CHECK_WINDOW_MS);
}

/** Sleeps `ms` unless cancelled; false when cancelled. */
async function pause(a: Attempt, ms: number): Promise<boolean> {
  const sleep = a.opts.sleep ?? defaultSleep;
  try {
    await sleep(ms, a.opts.signal);
    return true;
  } catch (error) {
    if (a.opts.signal?.aborted) return false;
    throw error;
  }
}

/**
 * One files.info request; any failure to get an answer is "unreadable", never thrown. A 429 is
 * waited out (its Retry-After) and asked again while that ends before `until` (epoch ms).
 */
async function askFileInfo(a: Attempt, fileId: string, until: number): Promise<FileInfo> {
  const url = apiUrl(a.base, 'files.info');
  for (;;) {
    const state = { bodyComplete: false };
    const form = formBody(new URLSearchParams({ file: fileId }), state);
    const sent = await send(a, url, apiHeaders(a), form.body, form.length, state);
    if ('error' in sent) return { kind: 'unreadable', code: sent.error.code };
    const info = readFileInfo(sent.res, a.now());
    if (info.kind !== 'unreadable' || info.retryAfterMs === undefined) return info;
    if (a.now() + info.retryAfterMs > until || !(await pause(a, info.retryAfterMs))) return info;
  }
}

/**
 * files.info for each file, all at once (a group is at most MAX_FILES_PER_COMPLETION files, and
 * files.info is Tier 4, 100+ a minute): the links are ready one round trip after the message,
 * not one per file. The answers end at the first "no scope", as asking one by one would leave
 * them (a token without files:read costs the group's few requests once, not a round trip more).
 */
async function askAll(a: Attempt, ids: readonly string[], until: number): Promise<FileInfo[]> {
  const infos: FileInfo[] = new Array(ids.length);
  await eachAtMost(ids.length, MAX_FILES_PER_COMPLETION, async (i) => {
    infos[i] = await askFileInfo(a, ids[i]!, until);
  });
  const noScope = infos.findIndex((i) => i.kind === 'no-scope');
  if (noScope >= 0) infos.length = noScope + 1;
  return infos;
}

/**
 * The files were shared: each gets its permalink and message ts from files.info when the
 * completion's answer had none (Slack's documented answer has none). A link that cannot be had
 * leaves the file delivered without one; only here, where the files are known to be shared,
 * is a token without files:read reported as links missing.
 */
export async function withLinks(
  a: Attempt,
  files: ServiceFile[],
  known?: readonly FileInfo[],
): Promise<ServiceFile[]> {
  if (a.opts.signal?.aborted) return files;
  const missing = files.filter((f) => !f.permalink && f.id);
  if (missing.length === 0) return files;
  const ids = known ? files.map((f) => f.id) : missing.map((f) => f.id);
  const infos =
    known ??
    (await askAll(
      a,
      missing.map((f) => f.id!),
      a.now() + windowOf(a),
    ));
  if (infos.some((i) => i.kind === 'no-scope')) a.opts.onLinksUnavailable?.();
  const byId = new Map<string, FileInfo>();
  for (const [i, info] of infos.entries()) {
    const id = ids[i];
    if (id) byId.set(id, info);
  }
  return files.map((f) => {
    const info = f.id ? byId.get(f.id) : undefined;
    return info ? withLink(f, info, a.channels) : f;
  });
}

export type Verdict =
  | { kind: 'shared'; infos: FileInfo[] }
  /** Not seen shared within the window, or it cannot be asked: the outcome is unknown. */
  | { kind: 'unclear'; infos: FileInfo[] };

/**
 * After a step 3 whose answer was unclear: did it share the files? Looks at files.info's
 * `shares` over the window (SHARE_CHECK_LOOKS_AT) until every file lists every channel; a token without
 * files:read ends it at once, since no look can tell then.
 */
export async function lookForShares(a: Attempt, ids: readonly string[]): Promise<Verdict> {
  const window = windowOf(a);
  const start = a.now();
  let infos: FileInfo[] = [];
  for (const at of SHARE_CHECK_LOOKS_AT) {
    const wait = start + at * window - a.now();
    if (wait > 0 && !(await pause(a, wait))) return { kind: 'unclear', infos };
    infos = await askAll(a, ids, start + window);
    if (infos.length === ids.length && sharedVerdict(infos, a.channels) === 'shared') {
      return { kind: 'shared', infos };
    }
    if (infos.some((i) => i.kind === 'no-scope') || a.opts.signal?.aborted) break;
  }
  return { kind: 'unclear', infos };
}

/** Why looking could not settle it, for the person reading the item's outcome. */
export function whyUnclear(a: Attempt, infos: readonly FileInfo[]): string {
  if (infos.some((i) => i.kind === 'no-scope')) {
    return 'the token lacks the files:read scope, so Trayshare cannot ask whether it was shared';
  }
  if (infos.length === 0 || infos.some((i) => i.kind === 'unreadable')) {
    return 'asking the service whether it was shared (files.info) gave no clear answer';
  }
  const ms = windowOf(a);
  const seconds = ms >= 10_000 ? Math.round(ms / 1000) : Math.round(ms / 100) / 10;
  return `files.info did not list it as shared within ${seconds} s (Slack may list a share later)`;
}
