// The named lists of each workspace, conversations (conversations.list) and people
// (users.list), kept in the state folder (one file per workspace and list) so names show at
// once after a restart. Both follow one policy: readers get what is cached at once and are
// never held up by the service; a list older than a day, or one asked to refresh, is fetched
// again in the background; a problem (no method, missing scope, rate limit) is kept and
// announced once per workspace. People are a list apart from conversations so a token without
// users:read still lists its channels, and the reverse. What differs between the two is data
// (a ListKind): what a good answer keeps, what else is announced (the kinds of conversation
// the token may not list, DMs without im:read), and whether a damaged file is set aside and
// said (the channel list) or quietly fetched again (the people).

import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { damagedName } from '../damaged-name';
import type { ConversationsView, DestinationsView, ListProblem as Problem } from '../views';
import type { Conversation, ListResult } from './conversations-list';
import type { PeopleResult, Person } from './users-list';

export const MAX_AGE_MS = 24 * 60 * 60 * 1000;

type Answer<Ok extends { ok: true }> =
  | Ok
  | { ok: false; code: string; message: string; retryAfterMs?: number };

interface ListKind<Ok extends { ok: true }, Kept> {
  /** What a good answer keeps. */
  keep(answer: Ok): Kept;
  /** What of it the file holds. */
  saved(kept: Kept): object;
  /** A saved file's list, or undefined when the file holds none. */
  restore(saved: Record<string, unknown>): Kept | undefined;
  /** What else is announced once, besides a problem. */
  notices(kept: Kept | undefined): string[];
  /** The notice for a damaged file, set aside; without it, a damaged file is fetched again quietly. */
  damaged?(path: string, kept: string): string;
}

interface Entry<Kept> {
  kept?: Kept;
  fetchedAt?: number;
  problem?: Problem;
  /** No fetch before this time (a rate limit's Retry-After). */
  notBefore?: number;
  loading?: Promise<void>;
}

interface ListView<Kept> {
  kept?: Kept;
  fetchedAt?: number;
  refreshing: boolean;
  problem?: Problem;
  /** True only the first time this problem (or another notice) is reported for this workspace. */
  announce: boolean;
}

interface ListCacheOptions<Ok extends { ok: true }> {
  dir: string;
  fetch: (workspaceId: string, signal: AbortSignal) => Promise<Answer<Ok>>;
  now?: () => number;
  maxAgeMs?: number;
  onChange?: (workspaceId: string) => void;
}

export interface GetOptions {
  refresh?: boolean;
  wait?: boolean;
  cachedOnly?: boolean;
}

const fileSafe = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, '_');

class NamedListCache<Ok extends { ok: true }, Kept> {
  private readonly entries = new Map<string, Entry<Kept>>();
  private readonly announced = new Set<string>();
  private readonly now: () => number;
  private readonly closing = new AbortController();
  private readonly repairs: string[] = [];

  constructor(
    private readonly opts: ListCacheOptions<Ok>,
    private readonly kind: ListKind<Ok, Kept>,
  ) {
    this.now = opts.now ?? Date.now;
  }

  private path(workspaceId: string): string {
    return join(this.opts.dir, `${fileSafe(workspaceId)}.json`);
  }

  private async entry(workspaceId: string): Promise<Entry<Kept>> {
    const known = this.entries.get(workspaceId);
    if (known) return known;
    const entry: Entry<Kept> = {};
    try {
      const saved = JSON.parse(await readFile(this.path(workspaceId), 'utf8'));
      const kept =
        typeof saved?.fetchedAt === 'number' ? this.kind.restore(saved) : (undefined as undefined);
      if (kept) {
        entry.kept = kept;
        entry.fetchedAt = saved.fetchedAt;
      } else {
        await this.setAside(workspaceId);
      }
    } catch (error) {
      // No file yet: fetched. An unreadable one is set aside (when the kind says so) and fetched.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') await this.setAside(workspaceId);
    }
    // A concurrent reader may have filled it meanwhile.
    const raced = this.entries.get(workspaceId);
    if (raced) return raced;
    this.entries.set(workspaceId, entry);
    return entry;
  }

  async get(workspaceId: string, opts: GetOptions): Promise<ListView<Kept>> {
    const entry = await this.entry(workspaceId);
    const stale =
      entry.fetchedAt === undefined ||
      this.now() - entry.fetchedAt > (this.opts.maxAgeMs ?? MAX_AGE_MS);
    const allowed = entry.notBefore === undefined || this.now() >= entry.notBefore;
    const may = allowed && !this.closing.signal.aborted && !entry.loading && !opts.cachedOnly;
    if ((stale || opts.refresh) && may) {
      entry.loading = this.load(workspaceId, entry).finally(() => {
        entry.loading = undefined;
        this.opts.onChange?.(workspaceId);
      });
    }
    if (opts.wait && entry.loading) await entry.loading;
    const keys = [
      ...(entry.problem ? [entry.problem.code] : []),
      ...this.kind.notices(entry.kept),
    ].map((what) => `${workspaceId}\u0000${what}`);
    const announce = keys.some((key) => !this.announced.has(key));
    for (const key of keys) this.announced.add(key);
    return {
      ...(entry.kept ? { kept: entry.kept } : {}),
      ...(entry.fetchedAt !== undefined ? { fetchedAt: entry.fetchedAt } : {}),
      refreshing: entry.loading !== undefined,
      ...(entry.problem ? { problem: entry.problem } : {}),
      announce,
    };
  }

  cached(workspaceId: string): Kept | undefined {
    return this.entries.get(workspaceId)?.kept;
  }

  forget(workspaceId: string): void {
    this.entries.delete(workspaceId);
  }

  private async load(workspaceId: string, entry: Entry<Kept>): Promise<void> {
    let result: Answer<Ok>;
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
    entry.kept = this.kind.keep(result);
    entry.fetchedAt = this.now();
    const path = this.path(workspaceId);
    const temp = `${path}.tmp`;
    try {
      await mkdir(this.opts.dir, { recursive: true });
      await writeFile(
        temp,
        JSON.stringify({ fetchedAt: entry.fetchedAt, ...this.kind.saved(entry.kept) }),
      );
      await rename(temp, path);
    } catch {
      // Kept in memory for this run; the next start fetches again.
    }
  }

  /** What was set aside since last asked (damaged files): each said once. */
  takeRepairNotices(): string[] {
    return this.repairs.splice(0);
  }

  private async setAside(workspaceId: string): Promise<void> {
    const { damaged } = this.kind;
    if (!damaged) return;
    const path = this.path(workspaceId);
    const copy = damagedName(path);
    const kept = await rename(path, copy).then(
      () => `set aside as ${copy}`,
      (error: NodeJS.ErrnoException) => `could not be set aside (${error.code ?? error.message})`,
    );
    this.repairs.push(damaged(path, kept));
  }

  /** Waits for fetches under way, so closing leaves the state folder quiet. */
  async close(): Promise<void> {
    this.closing.abort();
    await Promise.allSettled([...this.entries.values()].map((e) => e.loading));
  }
}

type ListOk = Extract<ListResult, { ok: true }>;
type ConversationsKept = Pick<ListOk, 'conversations'> &
  Partial<Omit<ListOk, 'ok' | 'conversations'>>;

const CONVERSATIONS: ListKind<ListOk, ConversationsKept> = {
  keep: ({ conversations, unlisted, waitedMs }) => ({ conversations, unlisted, waitedMs }),
  // How long the last fetch waited is news of that fetch, not part of the list.
  saved: ({ conversations, unlisted }) => ({ conversations, unlisted }),
  restore: (saved) =>
    Array.isArray(saved.conversations)
      ? {
          conversations: saved.conversations,
          ...(Array.isArray(saved.unlisted) ? { unlisted: saved.unlisted } : {}),
        }
      : undefined,
  notices: (kept) =>
    kept?.unlisted?.length ? [`unlisted:${kept.unlisted.map((u) => u.scope).join()}`] : [],
  damaged: (path, kept) =>
    `The channel list kept in ${path} was damaged and ${kept}; it is fetched again from the service.`,
};

type PeopleOk = Extract<PeopleResult, { ok: true }>;

const PEOPLE: ListKind<PeopleOk, Person[]> = {
  keep: ({ people }) => people,
  saved: (people) => ({ people }),
  restore: (saved) => (Array.isArray(saved.people) ? saved.people : undefined),
  notices: () => [],
};

export class ConversationCache {
  private readonly lists: NamedListCache<ListOk, ConversationsKept>;

  constructor(opts: ListCacheOptions<ListOk>) {
    this.lists = new NamedListCache(opts, CONVERSATIONS);
  }

  /**
   * What is known now. Starts a background fetch when the list is missing, older than a day, or
   * `refresh` is asked; `wait` waits for that fetch (the CLI and the explicit refresh button).
   * `cachedOnly` never fetches: what was saved, for a send by IDs.
   */
  async get(workspaceId: string, opts: GetOptions = {}): Promise<ConversationsView> {
    const { kept, ...view } = await this.lists.get(workspaceId, opts);
    return {
      workspaceId,
      ...(kept ? { conversations: kept.conversations } : {}),
      ...(view.fetchedAt !== undefined ? { fetchedAt: view.fetchedAt } : {}),
      ...(kept?.unlisted?.length ? { unlisted: kept.unlisted } : {}),
      ...(kept?.waitedMs ? { waitedMs: kept.waitedMs } : {}),
      refreshing: view.refreshing,
      ...(view.problem ? { problem: view.problem } : {}),
      announce: view.announce,
    };
  }

  /** The cached list only, never fetching: for labels in rows and history search. */
  cached(workspaceId: string): Conversation[] | undefined {
    return this.lists.cached(workspaceId)?.conversations;
  }

  /** Forget a workspace (removed, or its token or address changed). */
  forget(workspaceId: string): void {
    this.lists.forget(workspaceId);
  }

  /** What was set aside since last asked (damaged cache files): each said once. */
  takeRepairNotices(): string[] {
    return this.lists.takeRepairNotices();
  }

  close(): Promise<void> {
    return this.lists.close();
  }
}

export interface PeopleView {
  people?: Person[];
  refreshing: boolean;
  problem?: Problem;
  /** True only the first time this problem is reported for this workspace. */
  announce: boolean;
}

export class PeopleCache {
  private readonly lists: NamedListCache<PeopleOk, Person[]>;

  constructor(opts: ListCacheOptions<PeopleOk>) {
    this.lists = new NamedListCache(opts, PEOPLE);
  }

  async get(workspaceId: string, opts: GetOptions = {}): Promise<PeopleView> {
    const { kept, refreshing, problem, announce } = await this.lists.get(workspaceId, opts);
    return {
      ...(kept ? { people: kept } : {}),
      refreshing,
      ...(problem ? { problem } : {}),
      announce,
    };
  }

  /** The cached people only, never fetching: for labels. */
  cached(workspaceId: string): Person[] | undefined {
    return this.lists.cached(workspaceId);
  }

  forget(workspaceId: string): void {
    this.lists.forget(workspaceId);
  }

  close(): Promise<void> {
    return this.lists.close();
  }
}

/** A conversation list with the people beside it; refreshing while either is. */
export function withPeople(view: ConversationsView, people: PeopleView): DestinationsView {
  return {
    ...view,
    refreshing: view.refreshing || people.refreshing,
    ...(people.people ? { people: people.people } : {}),
    ...(people.problem ? { peopleProblem: people.problem, announcePeople: people.announce } : {}),
  };
}
