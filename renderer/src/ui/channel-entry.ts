// What the channel picker adds for an option chosen, or for text typed or pasted: IDs go in as
// they are, `#name` and `@name` are looked up in the lists, and anything that cannot be added
// (a channel the app is not in, a name that matches no one or several people) says why.
import { useState } from 'preact/hooks';
import { normaliseChannels } from '../../../main/portable/channels';
import { peopleNamed, personLabel } from '../../../main/portable/people-names';
import type { ChannelRef, DestinationsView } from '../../../preload/contract';
import { type DestinationOption, optionLabel } from './destination-options';

/** Conversation IDs (C, G, D) and people's (U, W). */
export const ID = /^[CGDUW][A-Z0-9]+$/;

/** A saved label: a channel's name without `#`, a person's with `@` (see channelName). */
const refLabel = (o: DestinationOption) =>
  o.kind === 'dm' || o.kind === 'person' ? optionLabel(o) : o.name;

/** `@name` among the people; a message when it names no one, or several. */
function personNamed(
  entry: string,
  people: DestinationsView['people'],
  list: readonly DestinationOption[] | undefined,
): DestinationOption | string | undefined {
  if (!entry.startsWith('@') || !people) return undefined;
  const found = peopleNamed(entry.slice(1), people);
  if (found.length > 1) {
    return `${entry} could be more than one person (${found.map((p) => `${p.id} ${personLabel(p)}`).join(', ')}): paste their user ID`;
  }
  const one = found[0];
  if (!one) return undefined;
  // Their DM when there is one, else their user ID (the service opens the DM).
  return (
    list?.find((o) => o.id === one.id || o.personId === one.id) ?? {
      id: one.id,
      name: personLabel(one).slice(1),
      kind: 'person',
      isMember: true,
      names: [],
    }
  );
}

export function useChannelEntry(opts: {
  view: DestinationsView | undefined;
  list: readonly DestinationOption[] | undefined;
  selected: readonly ChannelRef[];
  onAdd: (ref: ChannelRef) => void;
  signedIn: boolean;
}) {
  const { view, list } = opts;
  // Who sends decides the way in: a person signed in joins; an app (a token) is invited.
  const wayIn = opts.signedIn ? 'join it in Slack first' : 'invite the app first';
  const people = view?.people;
  const [message, setMessage] = useState<string | null>(null);
  const chosen = new Set(opts.selected.map((s) => s.id));

  const add = (o: DestinationOption): boolean => {
    if (o.isMember === false) {
      setMessage(
        opts.signedIn
          ? `You are not in ${optionLabel(o)}: ${wayIn}.`
          : `The app is not in ${optionLabel(o)}: ${wayIn}.`,
      );
      return false;
    }
    if (!chosen.has(o.id)) opts.onAdd({ id: o.id, label: refLabel(o) });
    setMessage(null);
    return true;
  };

  /** Why one entry of typed text cannot be added; undefined when it was. */
  const addEntry = (entry: string): string | undefined => {
    const someone = personNamed(entry, people, list);
    if (typeof someone === 'string') return someone;
    const byName = list?.find(
      (o) => o.name.toLowerCase() === entry.replace(/^[#@]/, '').toLowerCase(),
    );
    const known = someone ?? list?.find((o) => o.id === entry) ?? byName;
    if (known) return add(known) ? undefined : `${optionLabel(known)}: ${wayIn}`;
    if (ID.test(entry)) {
      if (!chosen.has(entry)) opts.onAdd({ id: entry });
      return undefined;
    }
    if (!entry.startsWith('@')) return `no channel named ${entry}`;
    return people
      ? `no one named ${entry}`
      : `${entry}: ${view?.peopleProblem?.message ?? 'the people are not loaded'}`;
  };

  /** Typed or pasted text: IDs go in as they are, names are looked up. */
  const addText = (raw: string): boolean => {
    const check = normaliseChannels(raw);
    if (!check.ok) {
      setMessage(check.error);
      return false;
    }
    const problems: string[] = [];
    for (const entry of check.channels) {
      const problem = addEntry(entry);
      if (problem !== undefined) problems.push(problem);
    }
    setMessage(problems.length > 0 ? `Not added: ${problems.join('; ')}.` : null);
    return problems.length === 0;
  };

  return { message, setMessage, chosen, add, addText };
}
