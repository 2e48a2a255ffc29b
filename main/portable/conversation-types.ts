// The four kinds of conversation Slack's conversations.list knows, each with the read scope a
// token needs to list it (https://docs.slack.dev/reference/methods/conversations.list, "Scopes").
// A token may hold some of them: what it cannot list is said in these words.

export type ConversationKind = 'public' | 'private' | 'dm' | 'group-dm';

export interface ConversationType {
  /** conversations.list's `types` value. */
  type: 'public_channel' | 'private_channel' | 'mpim' | 'im';
  kind: ConversationKind;
  scope: string;
  /** Plural, for "DMs need im:read". */
  label: string;
}

export const CONVERSATION_TYPES: readonly ConversationType[] = [
  { type: 'public_channel', kind: 'public', scope: 'channels:read', label: 'public channels' },
  { type: 'private_channel', kind: 'private', scope: 'groups:read', label: 'private channels' },
  { type: 'mpim', kind: 'group-dm', scope: 'mpim:read', label: 'group DMs' },
  { type: 'im', kind: 'dm', scope: 'im:read', label: 'DMs' },
];

export interface Conversation {
  id: string;
  /** Channel name without '#'; for a DM, the other person's user ID. */
  name: string;
  kind: ConversationKind;
  /**
   * Whether the token is in it. null: the list did not say (Slack leaves `is_member` out of
   * some entries), so a send is allowed and the service's not_in_channel names it if refused.
   */
  isMember: boolean | null;
  /** For a DM: the other person's user ID (Slack's `user`), to show them by name. */
  user?: string;
}

/** A kind of conversation the token may not list, and the scope that would let it. */
export interface UnlistedKind {
  kind: ConversationKind;
  scope: string;
}

export function unlistedOf(type: ConversationType): UnlistedKind {
  return { kind: type.kind, scope: type.scope };
}

/** "DMs need im:read, group DMs need mpim:read". */
export function whyUnlisted(unlisted: readonly UnlistedKind[]): string {
  return CONVERSATION_TYPES.filter((t) => unlisted.some((u) => u.kind === t.kind))
    .map((t) => `${t.label} need ${t.scope}`)
    .join(', ');
}

/** Said once where names are looked up, when the list is partial. */
export function unlistedMessage(unlisted: readonly UnlistedKind[]): string {
  return `Some names are not listed (${whyUnlisted(unlisted)}): add the scope to the app, or use their IDs.`;
}
