// The people of each workspace (users.list), kept in the state folder beside the conversation
// lists and with the same policy: readers get what is cached at once; a list older than a day,
// or one asked to refresh, is fetched again; a problem (no users:read, no method, a rate limit)
// is kept and announced once per workspace and kind. People are apart from conversations so a
// token without users:read still lists its channels, and the reverse.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConversationsView } from './conversation-cache';
import type { PeopleResult, Person } from './users-list';

const PEOPLE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface PeopleView {
  people?: Person[];
  refreshing: boolean;
  problem?: { code: string; message: string };
  /** True only the first time this problem is reported for this workspace. */
  announce: boolean;
}

/** The people part of what listConversations answers. */
interface PeoplePart {
  people?: Person[];
  /** Why there are no people (no users:read…): user IDs still work. */
  peopleProblem?: { code: string; message: string };
  /** True only the first time the people problem is reported for this workspace. */
  announcePeople?: boolean;
}

export type DestinationsView = ConversationsView & PeoplePart;

/** A conversation list with the people beside it; refreshing while either is. */
export function withPeople(view: ConversationsView, people: PeopleView): DestinationsView {
  return {
    ...view,
    refreshing: view.refreshing || people.refreshing,
    ...(people.people ? { people: people.people } : {}),
    ...(people.problem ? { peopleProblem: people.problem, announcePeople: people.announce } : {}),
  };
}

interface Entry {
  people?: Person[];
  fetchedAt?: number;
  problem?: { code: string; message: string };
  notBefore?: number;
  loading?: Promise<void>;
}

export interface PeopleCacheOptions {
  dir: string;
  fetch: (workspaceId: string, signal: AbortSignal) => Promise<PeopleResult>;
  now?: () => number;
  maxAgeMs?: number;
  onChange?: (workspaceId: string) => void;
}

const fileSafe = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, '_');

export class PeopleCache {
  private readonly entries = new Map<string, Entry>();
  private readonly announced = new Set<string>();
  private readonly now: () => number;
  private readonly closing = new AbortController();

  constructor(private readonly opts: PeopleCacheOptions) {
    this.now = opts.now ?? Date.now;
  }

  private path(workspaceId: string): string {
    return join(this.opts.dir, `${fileSafe(workspaceId)}.json`);
  }

  private async entry(workspaceId: string): Promise<Entry> {
    const known = this.entries.get(workspaceId);
    if (known) return known;
    const entry: Entry = {};
    try {
      const saved = JSON.parse(await readFile(this.path(workspaceId), 'utf8')) as Entry;
      if (Array.isArray(saved.people) && typeof saved.fetchedAt === 'number') {
        entry.people = saved.people;
        entry.fetchedAt = saved.fetchedAt;
      }
    } catch {
      // Nothing saved yet, or unreadable: fetched again.
    }
    const raced = this.entries.get(workspaceId);
    if (raced) return raced;
    this.entries.set(workspaceId, entry);
    return entry;
  }

  async get(
    workspaceId: string,
    opts: { refresh?: boolean; wait?: boolean; cachedOnly?: boolean } = {},
  ): Promise<PeopleView> {
    const entry = await this.entry(workspaceId);
    const stale =
      entry.fetchedAt === undefined ||
      this.now() - entry.fetchedAt > (this.opts.maxAgeMs ?? PEOPLE_MAX_AGE_MS);
    const allowed = entry.notBefore === undefined || this.now() >= entry.notBefore;
    const may = allowed && !this.closing.signal.aborted && !entry.loading && !opts.cachedOnly;
    if ((stale || opts.refresh) && may) {
      entry.loading = this.load(workspaceId, entry).finally(() => {
        entry.loading = undefined;
        this.opts.onChange?.(workspaceId);
      });
    }
    if (opts.wait && entry.loading) await entry.loading;
    const key = entry.problem ? `${workspaceId}\u0000${entry.problem.code}` : undefined;
    const announce = key !== undefined && !this.announced.has(key);
    if (key) this.announced.add(key);
    return {
      ...(entry.people ? { people: entry.people } : {}),
      refreshing: entry.loading !== undefined,
      ...(entry.problem ? { problem: entry.problem } : {}),
      announce,
    };
  }

  /** The cached people only, never fetching: for labels. */
  cached(workspaceId: string): Person[] | undefined {
    return this.entries.get(workspaceId)?.people;
  }

  forget(workspaceId: string): void {
    this.entries.delete(workspaceId);
  }

  private async load(workspaceId: string, entry: Entry): Promise<void> {
    let result: PeopleResult;
    try {
      result = await this.opts.fetch(workspaceId, this.closing.signal);
    } catch (error) {
      result = { ok: false, code: 'other', message: (error as Error).message };
    }
    if (!result.ok) {
      entry.problem = { code: result.code, message: result.message };
      const wait = result.retryAfterMs ?? (result.code === 'other' ? 60_000 : 60 * 60_000);
      entry.notBefore = this.now() + wait;
      return;
    }
    entry.problem = undefined;
    entry.notBefore = undefined;
    entry.people = result.people;
    entry.fetchedAt = this.now();
    const path = this.path(workspaceId);
    try {
      await mkdir(this.opts.dir, { recursive: true });
      await writeFile(
        `${path}.tmp`,
        JSON.stringify({ fetchedAt: entry.fetchedAt, people: entry.people }),
      );
      await rename(`${path}.tmp`, path);
    } catch {
      // Kept in memory for this run.
    }
  }

  async close(): Promise<void> {
    this.closing.abort();
    await Promise.allSettled([...this.entries.values()].map((e) => e.loading));
  }
}
