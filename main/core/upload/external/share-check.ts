// After a step 3 whose answer was lost, and for links Slack's answer leaves out: files.info
// says whether each file reached its channels (file-links.ts reads its answer).

import { apiUrl } from '../../../portable/credentials';
import type { ServiceFile } from '../../model';
import { defaultSleep } from '../../sleep';
import { eachAtMost } from '../each-at-most';
import { type FileInfo, readFileInfo, sharedVerdict, withLink } from '../file-links';
import { type Attempt, apiHeaders, formBody, send } from './request';

export const DEFAULT_SHARE_CHECK_DELAY_MS = 1000;

/** One files.info request; any failure to get an answer is "unreadable", never thrown. */
async function askFileInfo(a: Attempt, fileId: string): Promise<FileInfo> {
  const url = apiUrl(a.base, 'files.info');
  const state = { bodyComplete: false };
  const form = formBody(new URLSearchParams({ file: fileId }), state);
  const sent = await send(a, url, apiHeaders(a), form.body, form.length, state);
  if ('error' in sent) return { kind: 'unreadable', code: sent.error.code };
  return readFileInfo(sent.res);
}

/**
 * files.info for each file, in order; stops asking once the token proves unable to read files.
 * The first is asked alone (that is where a token without files:read shows), the rest up to
 * the concurrency setting at once; the answers end at the first "no scope", as asking one by
 * one would leave them.
 */
async function askAll(a: Attempt, ids: readonly string[]): Promise<FileInfo[]> {
  const infos: FileInfo[] = [];
  if (ids.length > 0) infos.push(await askFileInfo(a, ids[0]!));
  if (infos[0] && infos[0].kind !== 'no-scope') {
    const rest = ids.slice(1);
    await eachAtMost(rest.length, a.opts.concurrency ?? 1, async (i) => {
      infos[i + 1] = await askFileInfo(a, rest[i]!);
    });
  }
  const noScope = infos.findIndex((i) => i.kind === 'no-scope');
  if (noScope >= 0) {
    infos.length = noScope + 1;
    a.opts.onLinksUnavailable?.();
  }
  return infos;
}

/**
 * The files were shared: each gets its permalink and message ts from files.info when the
 * completion's answer had none (Slack's documented answer has none). A link that cannot be had
 * leaves the file delivered without one.
 */
export async function withLinks(
  a: Attempt,
  files: ServiceFile[],
  known?: readonly FileInfo[],
): Promise<ServiceFile[]> {
  if (a.opts.signal?.aborted) return files;
  const missing = files.filter((f) => !f.permalink && f.id);
  if (missing.length === 0) return files;
  const infos =
    known ??
    (await askAll(
      a,
      missing.map((f) => f.id!),
    ));
  const byId = new Map<string, FileInfo>();
  const ids = known ? files.map((f) => f.id) : missing.map((f) => f.id);
  for (const [i, info] of infos.entries()) {
    const id = ids[i];
    if (id) byId.set(id, info);
  }
  return files.map((f) => {
    const info = f.id ? byId.get(f.id) : undefined;
    return info ? withLink(f, info, a.channels) : f;
  });
}

type Verdict =
  | { kind: 'shared'; infos: FileInfo[] }
  | { kind: 'not-shared' }
  | { kind: 'unclear'; infos?: FileInfo[] };

/**
 * After a step 3 whose answer was lost: did it share the files? Asked of files.info's
 * `shares`. "Not shared" must hold twice, a moment apart, since a share may be listed late:
 * sending step 3 again on a wrong "not shared" would post the files twice.
 */
export async function wereShared(a: Attempt, ids: readonly string[]): Promise<Verdict> {
  const sleep = a.opts.sleep ?? defaultSleep;
  for (let look = 1; ; look++) {
    const infos = await askAll(a, ids);
    const verdict = infos.length === ids.length ? sharedVerdict(infos, a.channels) : 'unclear';
    if (verdict === 'shared') return { kind: 'shared', infos };
    if (verdict === 'unclear') return { kind: 'unclear', infos };
    if (look === 2) return { kind: 'not-shared' };
    try {
      await sleep(a.opts.shareCheckDelayMs ?? DEFAULT_SHARE_CHECK_DELAY_MS, a.opts.signal);
    } catch (error) {
      if (a.opts.signal?.aborted) return { kind: 'unclear' };
      throw error;
    }
  }
}

export function whyUnclear(infos: readonly FileInfo[] | undefined): string {
  if (infos?.some((i) => i.kind === 'no-scope')) {
    return 'the token lacks the files:read scope, so Trayshare cannot ask whether it was shared';
  }
  return 'asking the service whether it was shared (files.info) gave no clear answer';
}
