// Files the service holds and where each was shared: what files.info answers from. A file
// exists from the moment it has an ID (files.upload, or files.getUploadURLExternal's file_id);
// its shares are the messages that carried it, by channel, as Slack's file object lists them.
import type { Conversation } from './config';
import { type FileObject, fileObject, TEAM } from './file-object';

/** One message that carried the file, as in the file object's `shares` (ts and, in a thread, thread_ts). */
export interface Share {
  ts: string;
  threadTs?: string;
  user: string;
}

export interface HeldFile {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  size: number;
  created: number;
  user: string;
  /** Shares by channel ID, in the order they were made. */
  shares: Map<string, Share[]>;
}

export class SharedFiles {
  private readonly files = new Map<string, HeldFile>();

  hold(file: Omit<HeldFile, 'shares'>): HeldFile {
    const held = this.files.get(file.id) ?? { ...file, shares: new Map() };
    Object.assign(held, file);
    this.files.set(file.id, held);
    return held;
  }

  get(id: string): HeldFile | undefined {
    return this.files.get(id);
  }

  share(id: string, channels: readonly string[], share: Share): void {
    const held = this.files.get(id);
    if (!held) return;
    for (const channel of channels) {
      held.shares.set(channel, [...(held.shares.get(channel) ?? []), share]);
    }
  }
}

/**
 * The file object files.info answers. Shape from Slack's file object
 * (https://docs.slack.dev/reference/objects/file-object) and node-slack-sdk's
 * packages/web-api/src/types/response/FilesInfoResponse.ts (`shares.public|private`, each
 * channel's list of `{ts, thread_ts, channel_name, team_id, share_user_id, …}`): public channels
 * under `public` and in `channels`; private channels under `private` and in `groups`; DMs under
 * `private` and in `ims`.
 */
export function describeHeldFile(
  baseUrl: string,
  held: HeldFile,
  conversations: readonly Conversation[],
): FileObject & Record<string, unknown> {
  const shares: { public?: Record<string, unknown[]>; private?: Record<string, unknown[]> } = {};
  const channels: string[] = [];
  const groups: string[] = [];
  const ims: string[] = [];
  for (const [id, list] of held.shares) {
    const conv = conversations.find((c) => c.id === id);
    const isPublic = !conv || (conv.kind === 'channel' && !conv.private);
    if (isPublic) channels.push(id);
    else if (conv?.kind === 'im') ims.push(id);
    else groups.push(id);
    const where = isPublic ? 'public' : 'private';
    shares[where] ??= {};
    shares[where][id] = list.map((s) => ({
      ...(conv && conv.kind !== 'im' ? { channel_name: conv.name } : {}),
      team_id: TEAM.id,
      share_user_id: s.user,
      ts: s.ts,
      ...(s.threadTs === undefined ? {} : { thread_ts: s.threadTs }),
    }));
  }
  const base = fileObject(baseUrl, {
    id: held.id,
    name: held.name,
    title: held.title,
    mimetype: held.mimetype,
    size: held.size,
    created: held.created,
    user: held.user,
    channels,
  });
  return {
    ...base,
    timestamp: held.created,
    mode: 'hosted',
    is_external: false,
    is_public: channels.length > 0,
    groups,
    ims,
    comments_count: 0,
    shares,
  };
}
