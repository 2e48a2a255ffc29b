// Turning what people type (`#design-review`, `design-review`, `C0123`) into channel IDs, with
// the conversation list as the dictionary. Upper-case Slack-style IDs pass through untouched,
// known or not, so typed IDs always work; names must match exactly one conversation.
import { type UnlistedKind, whyUnlisted } from './conversation-types';
import type { Conversation } from './conversations-list';

/** Slack IDs: a type letter (C, G, D) and upper-case letters and digits. Names are lower case. */
export function looksLikeId(entry: string): boolean {
  return /^[CGD][A-Z0-9]+$/.test(entry);
}

export type NameResolution =
  | { ok: true; ids: string[] }
  | { ok: false; error: string; problems: NameProblem[] };

export interface NameProblem {
  entry: string;
  kind: 'unknown' | 'ambiguous' | 'not-member' | 'no-list';
  /** Close matches (`#name` or IDs) the person may have meant. */
  suggestions: string[];
}

/** How a conversation is written for people: `#name`, or `@user` for a DM. */
export function displayName(c: Conversation): string {
  return c.kind === 'dm' ? `@${c.name}` : `#${c.name}`;
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
export function closeMatches(query: string, conversations: readonly Conversation[]): string[] {
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

function described(problem: NameProblem, unlisted: readonly UnlistedKind[]): string {
  const hint =
    problem.suggestions.length > 0 ? ` Did you mean ${problem.suggestions.join(', ')}?` : '';
  // The name may belong to a kind the token cannot list: say which, and what would list it.
  const notListed =
    unlisted.length > 0 ? ` Not listed for this token: ${whyUnlisted(unlisted)}.` : '';
  switch (problem.kind) {
    case 'unknown':
      return `No channel named ${problem.entry} that this token can see.${hint}${notListed}`;
    case 'ambiguous':
      return `${problem.entry} names more than one conversation: use one of their IDs (${problem.suggestions.join(', ')}).`;
    case 'not-member':
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
): NameResolution {
  const ids: string[] = [];
  const problems: NameProblem[] = [];
  for (const entry of entries) {
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
      error: problems.map((p) => described(p, unlisted)).join('\n'),
    };
  }
  return { ok: true, ids };
}
