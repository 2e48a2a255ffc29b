// A channel the sender is not in is refused before anything is sent, in words that fit who
// sends (issue 36, point 4): an app (a token) is invited; a person signed in with Slack joins.
import { describe, expect, it } from 'vitest';
import { resolveChannelNames } from '../../main/core/conversations/channel-names';
import type { Conversation } from '../../main/portable/conversation-types';

const list: Conversation[] = [
  { id: 'C0GENERAL', name: 'general', kind: 'public', isMember: true },
  { id: 'C0RANDOM', name: 'random', kind: 'public', isMember: false },
];

describe('a channel the sender is not in', () => {
  it('asks an app to be invited', () => {
    const result = resolveChannelNames(['#random'], list);
    expect(result.ok ? '' : result.error).toBe(
      'The app is not a member of #random: invite the app first (/invite in that channel), or leave it out.',
    );
  });

  it('asks a signed-in person to join it, by name, whether typed by name or by ID', () => {
    for (const entry of ['#random', 'C0RANDOM']) {
      const result = resolveChannelNames([entry], list, [], undefined, true);
      expect(result.ok ? '' : result.error).toBe(
        'You are not in #random: join #random in Slack, or choose another channel.',
      );
    }
  });
});
