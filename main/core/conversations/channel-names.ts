// Turning what people type (`#design-review`, `design-review`, `C0123`, `@alice`, `U0123`) into
// the IDs the service takes, with the conversation list and the workspace's people as the
// dictionaries. Upper-case Slack-style IDs pass through untouched, known or not, so typed IDs
// always work (a user ID too: the service shares to the DM with that person); names must match
// exactly one conversation or person.
import { type UnlistedKind, whyUnlisted } from '../../portable/conversation-types';
import {
  dmPerson,
  looksLikeUserId,
  type PeopleLookup,
  peopleNamed,
  personLabel,
} from '../../portable/people-names';
import type { Conversation } from './conversations-list';
import type { Person } from './users-list';

/**
 * Slack IDs: a type letter (C, G, D for conversations; U, W for people) and upper-case letters
 * and digits. Names are lower case.
 */
export function looksLikeId(entry: string): boolean {
  return /^[CGDUW][A-Z0-9]+$/.test(entry);
}

export type NameResolution =
  | { ok: true; ids: string[] }
  | { ok: false; error: string; problems: NameProblem[] };

interface NameProblem {
  entry: string;
  kind:
    | 'unknown'
    | 'unknown-person'
    | 'ambiguous'
    | 'ambiguous-person'
    | 'not-member'
    | 'no-list'
    | 'no-people';
  /** Close matches (`#name` or IDs) the person may have meant. */
  suggestions: string[];
  /** Why the dictionary is missing (no-people: the people list's problem). */
  reason?: string;
}

/**
 * How a conversation is written for people: `#name`, or `@person` for a DM, by the person's
 * name when `people` knows them (else their user ID).
 */
export function displayName(c: Conversation, people?: readonly Person[]): string {
  if (c.kind !== 'dm') return `#${c.name}`;
  const person = dmPerson(c, people);
  return person ? personLabel(person) : `@${c.name}`;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = current;
    }
  }
  return row[b.length]!;
}

/** Conversations a few edits away, or whose name holds the query (or it theirs); at most 5, closest first. */
function closeMatches(query: string, conversations: readonly Conversation[]): string[] {
  const q = query.toLowerCase();
  const near = Math.max(2, Math.floor(q.length / 3));
  return conversations
    .map((c) => {
      const name = c.name.toLowerCase();
      return { c, score: distance(q, name), contains: name.includes(q) || q.includes(name) };
    })
    .filter(({ score, contains }) => score <= near || contains)
    .sort((a, b) => a.score - b.score || a.c.name.localeCompare(b.c.name))
    .slice(0, 5)
    .map(({ c }) => displayName(c));
}

/** People a few edits away from `query` by any of their names; at most 5, closest first. */
function closePeople(query: string, people: readonly Person[]): string[] {
  const q = query.toLowerCase();
  const near = Math.max(2, Math.floor(q.length / 3));
  return people
    .map((p) => {
      const names = [p.displayName, p.handle, p.realName].filter((n) => n !== '');
      const scores = names.map((n) => distance(q, n.toLowerCase()));
      const contains = names.some((n) => n.toLowerCase().includes(q));
      return { p, score: Math.min(...scores), contains };
    })
    .filter(({ score, contains }) => score <= near || contains)
    .sort((a, b) => a.score - b.score || personLabel(a.p).localeCompare(personLabel(b.p)))
    .slice(0, 5)
    .map(({ p }) => personLabel(p));
}

function described(
  problem: NameProblem,
  unlisted: readonly UnlistedKind[],
  signedIn: boolean,
): string {
  const hint =
    problem.suggestions.length > 0 ? ` Did you mean ${problem.suggestions.join(', ')}?` : '';
  // The name may belong to a kind the token cannot list: say which, and what would list it.
  const notListed =
    unlisted.length > 0 ? ` Not listed for this token: ${whyUnlisted(unlisted)}.` : '';
  switch (problem.kind) {
    case 'unknown':
      return `No channel named ${problem.entry} that this token can see.${hint}${notListed}`;
    case 'unknown-person':
      return `No one named ${problem.entry} in this workspace.${hint}`;
    case 'no-people':
      return `${problem.entry} is a person's name, and this workspace's people are not available: ${problem.reason ?? 'use their user ID (such as U0123ABCD).'}`;
    case 'ambiguous':
      return `${problem.entry} names more than one conversation: use one of their IDs (${problem.suggestions.join(', ')}).`;
    case 'ambiguous-person':
      return `${problem.entry} could be more than one person: use one of their user IDs (${problem.suggestions.join(', ')}).`;
    case 'not-member':
      // A person signed in with Slack sends as themselves: they join, no app is invited.
      if (signedIn)
        return `You are not in ${problem.entry}: join ${problem.entry} in Slack, or choose another channel.`;
      return `The app is not a member of ${problem.entry}: invite the app first (/invite in that channel), or leave it out.`;
    case 'no-list':
      return `${problem.entry} is a name, and this workspace's channel list is not available: use its channel ID (such as C0123ABCD).`;
  }
}

/**
 * Resolves each entry to an ID and refuses channels the token is known not to be a member of
 * (`is_member: false`; a list that does not say is no reason to refuse).
 * `conversations` undefined: the list is unavailable (IDs still pass). `unlisted`: kinds the
 * list leaves out for want of a scope, named when a name is not found.
 */
export function resolveChannelNames(
  entries: readonly string[],
  conversations: readonly Conversation[] | undefined,
  unlisted: readonly UnlistedKind[] = [],
  people?: PeopleLookup,
  /** Sent as a person signed in with Slack (not as an app): their way in is to join. */
  signedIn = false,
): NameResolution {
  const ids: string[] = [];
  const problems: NameProblem[] = [];
  for (const entry of entries) {
    if (people && entry.startsWith('@')) {
      const person = resolvePerson(entry, conversations, people);
      if (typeof person === 'string') {
        if (!ids.includes(person)) ids.push(person);
        continue;
      }
      if (person) {
        problems.push(person);
        continue;
      }
    }
    if (looksLikeId(entry)) {
      const known = conversations?.find((c) => c.id === entry);
      if (known?.isMember === false) {
        problems.push({ entry: displayName(known), kind: 'not-member', suggestions: [] });
      } else if (!ids.includes(entry)) ids.push(entry);
      continue;
    }
    const name = entry.replace(/^[#@]/, '');
    if (!conversations) {
      problems.push({ entry, kind: 'no-list', suggestions: [] });
      continue;
    }
    const matches = conversations.filter((c) => c.name.toLowerCase() === name.toLowerCase());
    if (matches.length === 0) {
      problems.push({ entry, kind: 'unknown', suggestions: closeMatches(name, conversations) });
    } else if (matches.length > 1) {
      problems.push({
        entry,
        kind: 'ambiguous',
        suggestions: matches.map((c) => `${c.id} (${displayName(c)})`),
      });
    } else if (matches[0]!.isMember === false) {
      problems.push({ entry: displayName(matches[0]!), kind: 'not-member', suggestions: [] });
    } else if (!ids.includes(matches[0]!.id)) ids.push(matches[0]!.id);
  }
  if (problems.length > 0) {
    return {
      ok: false,
      problems,
      error: problems.map((p) => described(p, unlisted, signedIn)).join('\n'),
    };
  }
  return { ok: true, ids };
}

/**
 * `@name` among the people: their user ID, a problem, or undefined to look it up among the
 * conversations as before (a DM named by its user ID, or a channel typed with `@`).
 */
function resolvePerson(
  entry: string,
  conversations: readonly Conversation[] | undefined,
  lookup: PeopleLookup,
): string | NameProblem | undefined {
  const name = entry.slice(1);
  if (looksLikeUserId(name)) return name;
  const listed = conversations?.some((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!lookup.people) {
    if (listed) return undefined;
    return {
      entry,
      kind: 'no-people',
      suggestions: [],
      ...(lookup.problem ? { reason: lookup.problem } : {}),
    };
  }
  const found = peopleNamed(name, lookup.people);
  if (found.length === 1) return found[0]!.id;
  if (found.length > 1) {
    return {
      entry,
      kind: 'ambiguous-person',
      suggestions: found.map((p) => `${p.id} (${personLabel(p)}, ${p.handle})`),
    };
  }
  if (listed) return undefined;
  return {
    entry,
    kind: 'unknown-person',
    suggestions: closePeople(name, lookup.people),
  };
}
