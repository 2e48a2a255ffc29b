// A user ID among the `channels` of files.upload or files.completeUploadExternal shares to the
// DM between the token's user and that person, as on Slack: the completeUploadExternal docs
// say "Comma-separated string of channel IDs or user IDs"
// (https://docs.slack.dev/reference/methods/files.completeUploadExternal), and files.upload
// posted to a member ID's DM (reported in slackapi/java-slack-sdk#1309 and
// slackapi/node-slack-sdk#1653). When there is no DM yet, one is opened, as conversations.open
// would; it is then listed by conversations.list like any other. The file's `channels` and the
// recorded message name the DM's D… ID, not the user ID.
import { MAX_CHANNELS } from './api-common';
import type { TokenGrant } from './config';
import type { ServiceContext } from './context';
import { newId } from './file-object';

const USER_ID = /^[UW][A-Z0-9]+$/;

export function isUserId(id: string): boolean {
  return USER_ID.test(id);
}

export type Destinations =
  | {
      ok: true;
      /** Conversation IDs that exist now: checked as before (existence, membership). */
      existing: string[];
      /** Opens the DMs still missing and gives every destination as a conversation ID. */
      open(): string[];
    }
  | { ok: false; error: string };

function dmWith(ctx: ServiceContext, grant: TokenGrant, user: string): string | undefined {
  return ctx.conversations.find(
    (c) => c.kind === 'im' && c.user === user && grant.channels.includes(c.id),
  )?.id;
}

export function destinations(
  ctx: ServiceContext,
  grant: TokenGrant,
  channels: readonly string[],
): Destinations {
  if (channels.length > MAX_CHANNELS) return { ok: false, error: 'channels_limit_exceeded' };
  for (const id of channels) {
    if (!isUserId(id)) continue;
    const person = ctx.config.users.find((u) => u.id === id);
    // Slack documents no own code for an unknown or deactivated person in `channels`; a
    // destination that cannot be found is channel_not_found, as for a channel ID.
    if (!person || person.deleted) return { ok: false, error: 'channel_not_found' };
  }
  const existing = channels.map((id) => (isUserId(id) ? dmWith(ctx, grant, id) : id));
  return {
    ok: true,
    existing: existing.filter((id): id is string => id !== undefined),
    open: () => {
      const ids = channels.map((id, i) => {
        if (!isUserId(id)) return id;
        const known = existing[i] ?? dmWith(ctx, grant, id);
        if (known) return known;
        const dm = newId('D');
        ctx.conversations.push({
          id: dm,
          name: dm,
          kind: 'im',
          private: true,
          archived: false,
          user: id,
        });
        ctx.config.channels.push({ id: dm, kind: 'im', user: id });
        grant.channels.push(dm);
        ctx.log(`opened DM ${dm} with ${id}`);
        return dm;
      });
      // U0ALICE next to D0ALICE is one destination.
      return [...new Set(ids)];
    },
  };
}
