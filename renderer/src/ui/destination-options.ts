// What the channel picker offers: the workspace's conversations, each DM as its person, and the
// people who have no DM yet (sharing to their user ID opens one). Searched by every name a
// person goes by, so `bob`, `Bobby` and `Bob Builder` all find Bob.

import { dmPerson, personName } from '../../../main/portable/people-names';
import type { Conversation, ConversationKind, Person } from '../../../preload/contract';

export interface DestinationOption {
  id: string;
  /** Shown beside the icon: a channel's name, a person's name. */
  name: string;
  kind: ConversationKind | 'person';
  /** null: the list did not say (allowed; the service names it if it refuses). */
  isMember: boolean | null;
  /** Lower-case names the search matches. */
  names: string[];
  /** For a DM: the person it is with. */
  personId?: string;
}

const namesOf = (p: Person) =>
  [p.displayName, p.handle, p.realName].filter((n) => n !== '').map((n) => n.toLowerCase());

export function destinationOptions(
  conversations: readonly Conversation[],
  people: readonly Person[] | undefined,
): DestinationOption[] {
  const withDm = new Set<string>();
  const options = conversations.map((c): DestinationOption => {
    const person = dmPerson(c, people);
    if (!person) return { ...c, names: [c.name.toLowerCase()] };
    withDm.add(person.id);
    return { ...c, name: personName(person), names: namesOf(person), personId: person.id };
  });
  for (const p of people ?? []) {
    if (withDm.has(p.id)) continue;
    options.push({
      id: p.id,
      name: personName(p),
      kind: 'person',
      isMember: true,
      names: namesOf(p),
    });
  }
  return options;
}

/**
 * Options whose ID is the query, then an exact name (so Enter on "#design" adds #design, not
 * #design-review), then names starting with it, then names holding it; with no query, the
 * conversations.
 */
export function matchingOptions(
  list: readonly DestinationOption[],
  query: string,
  max: number,
): DestinationOption[] {
  const q = query.trim().replace(/^[#@]/, '').toLowerCase();
  // Before anything is typed: the conversations only. Everyone in the workspace would bury
  // them (a workspace can have thousands of people); a person is one keystroke away.
  if (q === '') return list.filter((o) => o.kind !== 'person').slice(0, max);
  const rank = (o: DestinationOption): number => {
    if (o.id.toLowerCase() === q) return 0;
    if (o.names.includes(q)) return 1;
    if (o.names.some((n) => n.startsWith(q))) return 2;
    return o.names.some((n) => n.includes(q)) ? 3 : -1;
  };
  return list
    .map((o) => ({ o, rank: rank(o) }))
    .filter((m) => m.rank >= 0)
    .sort((a, b) => a.rank - b.rank)
    .slice(0, max)
    .map((m) => m.o);
}

/** How an option is written: `#name`, or `@name` for a person or a DM. */
export function optionLabel(o: DestinationOption): string {
  return o.kind === 'dm' || o.kind === 'person' ? `@${o.name}` : `#${o.name}`;
}
