// The conversations of each workspace, kept in the state folder so names show at once after a
// restart. A list older than a day, or one asked to refresh, is fetched again in the background:
// readers get what is cached and are never held up by the service. A problem (no method,
// missing scope, rate limit) is kept with the list, and so are the kinds the token may not list
// (DMs without im:read): each is announced once per workspace.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { UnlistedKind } from '../../portable/conversation-types';
import type { Conversation, ListResult } from './conversations-list';

export const MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface ConversationsView {
  workspaceId: string;
  /** Undefined until a list was fetched once (or when the service cannot list). */
  conversations?: Conversation[];
  fetchedAt?: number;
  /** Kinds the list leaves out because the token lacks their scope (see unlistedMessage). */
  unlisted?: UnlistedKind[];
  /** How long the last fetch waited out the service's Retry-After before it was answered. */
  waitedMs?: number;
  refreshing: boolean;
  problem?: { code: string; message: string };
  /** True only the first time this problem, or these unlisted kinds, are reported for this workspace. */
  announce: boolean;
}

interface Entry {
  conversations?: Conversation[];
  fetchedAt?: number;
  unlisted?: UnlistedKind[];
  waitedMs?: number;
  problem?: { code: string; message: string };
  /** No fetch before this time (a rate limit's Retry-After). */
  notBefore?: number;
  loading?: Promise<void>;
}

export interface ConversationCacheOptions {
  dir: string;
  fetch: (workspaceId: string, signal: AbortSignal) => Promise<ListResult>;
  now?: () => number;
  maxAgeMs?: number;
  onChange?: (workspaceId: string) => void;
}

const fileSafe = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, '_');

export class ConversationCache {
  private readonly entries = new Map<string, Entry>();
  private readonly announced = new Set<string>();
  private readonly now: () => number;
  private readonly closing = new AbortController();
  private readonly repairs: string[] = [];

  constructor(private readonly opts: ConversationCacheOptions) {
    this.now = opts.now ?? Date.now;
  }

  private path(workspaceId: string): string {
    return join(this.opts.dir, `${fileSafe(workspaceId)}.json`);
  }

  private async entry(workspaceId: string): Promise<Entry> {
    let entry = this.entries.get(workspaceId);
    if (entry) return entry;
    entry = {};
    try {
      const saved = JSON.parse(await readFile(this.path(workspaceId), 'utf8')) as Entry;
      if (Array.isArray(saved.conversations) && typeof saved.fetchedAt === 'number') {
        entry.conversations = saved.conversations;
        entry.fetchedAt = saved.fetchedAt;
        if (Array.isArray(saved.unlisted)) entry.unlisted = saved.unlisted;
      } else {
        await this.setAside(workspaceId);
      }
    } catch (error) {
      // No cache yet: fetched. An unreadable one is set aside, said once, and fetched again.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') await this.setAside(workspaceId);
    }
    // A concurrent reader may have filled it meanwhile.
    const existing = this.entries.get(workspaceId);
    if (existing) return existing;
    this.entries.set(workspaceId, entry);
    return entry;
  }

  /**
   * What is known now. Starts a background fetch when the list is missing, older than a day, or
   * `refresh` is asked; `wait` waits for that fetch (the CLI and the explicit refresh button).
   * `cachedOnly` never fetches: what was saved, for a send by IDs.
   */
  async get(
    workspaceId: string,
    opts: { refresh?: boolean; wait?: boolean; cachedOnly?: boolean } = {},
  ): Promise<ConversationsView> {
    const entry = await this.entry(workspaceId);
    const stale =
      entry.fetchedAt === undefined ||
      this.now() - entry.fetchedAt > (this.opts.maxAgeMs ?? MAX_AGE_MS);
    const allowed = entry.notBefore === undefined || this.now() >= entry.notBefore;
    const open = !this.closing.signal.aborted;
    if ((stale || opts.refresh) && allowed && open && !entry.loading && !opts.cachedOnly) {
      entry.loading = this.load(workspaceId, entry).finally(() => {
        entry.loading = undefined;
        this.opts.onChange?.(workspaceId);
      });
    }
    if (opts.wait && entry.loading) await entry.loading;
    return this.view(workspaceId, entry);
  }

  /** The cached list only, never fetching: for labels in rows and history search. */
  cached(workspaceId: string): Conversation[] | undefined {
    return this.entries.get(workspaceId)?.conversations;
  }

  /** Forget a workspace (removed, or its token or address changed). */
  forget(workspaceId: string): void {
    this.entries.delete(workspaceId);
  }

  private view(workspaceId: string, entry: Entry): ConversationsView {
    const keys = [
      ...(entry.problem ? [entry.problem.code] : []),
      ...(entry.unlisted?.length ? [`unlisted:${entry.unlisted.map((u) => u.scope).join()}`] : []),
    ].map((what) => `${workspaceId}\u0000${what}`);
    const announce = keys.some((key) => !this.announced.has(key));
    for (const key of keys) this.announced.add(key);
    return {
      workspaceId,
      ...(entry.conversations ? { conversations: entry.conversations } : {}),
      ...(entry.fetchedAt !== undefined ? { fetchedAt: entry.fetchedAt } : {}),
      ...(entry.unlisted?.length ? { unlisted: entry.unlisted } : {}),
      ...(entry.waitedMs ? { waitedMs: entry.waitedMs } : {}),
      refreshing: entry.loading !== undefined,
      ...(entry.problem ? { problem: entry.problem } : {}),
      announce,
    };
  }

  private async load(workspaceId: string, entry: Entry): Promise<void> {
    let result: ListResult;
    try {
      result = await this.opts.fetch(workspaceId, this.closing.signal);
    } catch (error) {
      result = { ok: false, code: 'other', message: (error as Error).message };
    }
    if (!result.ok) {
      entry.problem = { code: result.code, message: result.message };
      // Asking again right away would only be refused again.
      const wait = result.retryAfterMs ?? (result.code === 'other' ? 60_000 : 60 * 60_000);
      entry.notBefore = this.now() + wait;
      return;
    }
    entry.problem = undefined;
    entry.notBefore = undefined;
    entry.conversations = result.conversations;
    entry.unlisted = result.unlisted;
    entry.waitedMs = result.waitedMs;
    entry.fetchedAt = this.now();
    const path = this.path(workspaceId);
    const temp = `${path}.tmp`;
    try {
      await mkdir(this.opts.dir, { recursive: true });
      await writeFile(
        temp,
        JSON.stringify({
          fetchedAt: entry.fetchedAt,
          conversations: entry.conversations,
          unlisted: entry.unlisted,
        }),
      );
      await rename(temp, path);
    } catch {
      // Kept in memory for this run; the next start fetches again.
    }
  }

  /** What was set aside since last asked (damaged cache files): each said once. */
  takeRepairNotices(): string[] {
    return this.repairs.splice(0);
  }

  private async setAside(workspaceId: string): Promise<void> {
    const path = this.path(workspaceId);
    const copy = `${path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    const kept = await rename(path, copy).then(
      () => `set aside as ${copy}`,
      (error: NodeJS.ErrnoException) => `could not be set aside (${error.code ?? error.message})`,
    );
    this.repairs.push(
      `The channel list kept in ${path} was damaged and ${kept}; it is fetched again from the service.`,
    );
  }

  /** Waits for fetches under way, so closing leaves the state folder quiet. */
  async close(): Promise<void> {
    this.closing.abort();
    await Promise.allSettled([...this.entries.values()].map((e) => e.loading));
  }
}
