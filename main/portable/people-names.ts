// People as destinations: `@name` found among the workspace's people, and a person shown by
// name wherever a destination is shown. Slack shows a person's display name, or their full name
// when they set none; `@name` is looked up the same way, then by handle, then by full name, so
// what people see is what they can type.
import type { Conversation } from './conversation-types';

export interface Person {
  /** U… (or W… on Enterprise Grid). */
  id: string;
  /** The handle (`name`), unique in the workspace. */
  handle: string;
  /** What Slack shows for the person; may be empty (people need not set one). */
  displayName: string;
  realName: string;
}

/** What the lookup of `@name` had to go on: the people, or why there are none. */
export interface PeopleLookup {
  people?: readonly Person[];
  /** Why `people` is missing (no users:read, no method…), said when a name cannot be found. */
  problem?: string;
}

/** Slack IDs of people: U… and, on Enterprise Grid, W…. */
export function looksLikeUserId(entry: string): boolean {
  return /^[UW][A-Z0-9]+$/.test(entry);
}

/** "alice": the name Slack shows for the person. */
export function personName(p: Person): string {
  return p.displayName || p.realName || p.handle;
}

/** "@alice". */
export function personLabel(p: Person): string {
  return `@${personName(p)}`;
}

/** The person a DM is with: Slack's `user` of the DM, kept as its name when it has none. */
export function dmPerson(
  c: Conversation,
  people: readonly Person[] | undefined,
): Person | undefined {
  if (c.kind !== 'dm') return undefined;
  const user = c.user ?? c.name;
  return people?.find((p) => p.id === user);
}

/** Everyone `name` could mean, at the first of display name, handle, full name that matches. */
export function peopleNamed(name: string, people: readonly Person[]): Person[] {
  const q = name.toLowerCase();
  for (const field of ['displayName', 'handle', 'realName'] as const) {
    const found = people.filter((p) => p[field] !== '' && p[field].toLowerCase() === q);
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * id → how it reads: `#design-review` for a channel, `@alice` for a DM with Alice and for
 * Alice's user ID. A DM whose person is not known reads as `@U0ALICE`.
 */
export function destinationLabels(
  conversations: readonly Conversation[] | undefined,
  people: readonly Person[] | undefined,
): Map<string, string> {
  const labels = new Map<string, string>();
  for (const p of people ?? []) labels.set(p.id, personLabel(p));
  for (const c of conversations ?? []) {
    if (c.kind === 'dm') {
      const person = dmPerson(c, people);
      labels.set(c.id, person ? personLabel(person) : `@${c.name}`);
    } else labels.set(c.id, `#${c.name}`);
  }
  return labels;
}

/**
 * The DM a reply in a thread with a person goes to. A reply is sent with `channel_id` (as both
 * of Slack's SDKs send thread_ts), which refuses a user ID (invalid_arguments, "input must match
 * regex pattern: ^[CGDZ][A-Z0-9]{8,}$", slackapi/bolt-js#2115): the person's DM from the list
 * stands in. Any other ID is its own destination; undefined: no DM with that person is listed.
 */
export function threadDestination(
  id: string,
  conversations: readonly Conversation[] | undefined,
): string | undefined {
  if (!looksLikeUserId(id)) return id;
  return conversations?.find((c) => c.kind === 'dm' && (c.user ?? c.name) === id)?.id;
}
