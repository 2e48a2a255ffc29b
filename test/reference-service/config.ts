// The reference service's settings: which tokens exist, what they may post to, and the limits
// the contract says the service enforces. One schema serves the CLI's config file and the
// programmatic `startReferenceService({ config })`, so both refuse the same mistakes.
import { z } from 'zod';
import {
  defaultOAuthConfig,
  type OAuthConfig,
  oauthConfigSchema,
  resolveOAuthConfig,
} from './oauth-config';

export interface TokenGrant {
  /** Slack-style user ID the token belongs to, e.g. U0TEST. */
  user: string;
  /** Channels this token may post to: its membership (`is_member` in conversations.list). */
  channels: string[];
  /**
   * OAuth scopes the token was granted; absent means every scope. conversations.list needs
   * channels:read, groups:read, im:read or mpim:read for the types it is asked for.
   */
  scopes?: string[];
  /** Display name auth.test reports as `user`; defaults to the user ID in lower case. */
  name?: string;
  /** The team of a token issued by Sign in with Slack; configured tokens are the service's own. */
  team?: { id: string; name: string };
}

/** A conversation that exists. `kind` defaults to a channel; a DM (`im`) names its `user`. */
interface ChannelSpec {
  id: string;
  name?: string;
  private?: boolean;
  archived?: boolean;
  kind?: 'channel' | 'im' | 'mpim';
  user?: string;
  /**
   * conversations.list leaves `is_member` out of this channel's entry, as Slack does for some
   * entries (python-slack-sdk tests/slack_sdk_fixture/web_response_conversations_list_pagination.json
   * lists `{"id": "C1"}` alone). DMs never carry it (see api-conversations.ts).
   */
  omitIsMember?: boolean;
}

/** A bare ID is a public channel named after itself. */
type ChannelEntry = string | ChannelSpec;

/**
 * A member of the workspace, as users.list describes one. `displayName` is what Slack shows
 * (the person may leave it empty), `name` the handle, `realName` the full name.
 */
export interface UserSpec {
  id: string;
  name: string;
  realName?: string;
  displayName?: string;
  deleted?: boolean;
  bot?: boolean;
}

export interface Conversation {
  id: string;
  name: string;
  kind: 'channel' | 'im' | 'mpim';
  private: boolean;
  archived: boolean;
  user?: string;
  omitIsMember?: boolean;
}

export interface ServiceConfig {
  tokens: Record<string, TokenGrant>;
  /** Conversations that exist, by ID or described. */
  channels: ChannelEntry[];
  maxFileBytes: number;
  /** Token bucket size and refill per minute, per token; 0 turns the limit off. */
  uploadsPerMinute: number;
  /**
   * Calls the upload bucket holds when full; 0: as many as `uploadsPerMinute`. Lets a test hit
   * the limit with few files while the Retry-After stays short (it is the refill time of one call).
   */
  uploadBurst: number;
  /** External protocol: how long an upload_url (and bytes never completed) live. */
  uploadUrlTtlMs: number;
  /**
   * conversations.list and users.list calls a minute per token, each method its own bucket
   * (Slack's tier 2: about 20); 0: no limit.
   */
  listsPerMinute: number;
  /**
   * Files one files.completeUploadExternal may share. Slack's docs name no limit; 14 were seen
   * accepted and 15 refused (https://github.com/slackapi/python-slack-sdk/issues/1653), so the
   * default is 14: the service never refuses what Slack was seen to accept.
   */
  filesPerCompletion: number;
  /**
   * files.completeUploadExternal's answer. 'documented' is what Slack's method page shows,
   * `{"ok":true,"files":[{"id","title"}]}`, with no permalink (links come from files.info);
   * 'full' adds the whole file object with its permalink, for clients that read it from there.
   */
  completionAnswer: 'documented' | 'full';
  /**
   * What a second completion of an already completed file does. Slack documents only that the
   * method completes an upload once, not what a repeat answers, so tests can choose:
   * 'file_not_found' refuses it; 'posts-again' shares it again, the worst a client must survive.
   */
  repeatCompletion: 'file_not_found' | 'posts-again';
  /**
   * How long after a completion files.info starts to list the file's shares (and a 'full'
   * completion answer its channels). Slack shares asynchronously: a completion's answer, or a
   * files.info just after it, may not list them yet (service contract, "Slack's current
   * protocol", 4). The message itself is posted at once. Default 0.
   */
  shareDelayMs: number;
  /** The workspace's members (users.list); a user ID in `channels` shares to the DM with one. */
  users: UserSpec[];
  /** Sign in with Slack: apps, who approves, token lifetimes (oauth-config.ts). */
  oauth: OAuthConfig;
}

const GIB = 1024 * 1024 * 1024;

export const defaultTestConfig: ServiceConfig = Object.freeze<ServiceConfig>({
  tokens: {
    'xoxb-test-token': {
      user: 'U0TEST',
      channels: ['C0GENERAL', 'C0DESIGN', 'C0RANDOM', 'C0DESIGNX', 'D0ALICE'],
    },
    'xoxb-other-token': { user: 'U0OTHER', channels: ['C0RANDOM'] },
  },
  channels: [
    { id: 'C0GENERAL', name: 'general' },
    { id: 'C0DESIGN', name: 'design-review' },
    { id: 'C0RANDOM', name: 'random' },
    { id: 'C0SECRET', name: 'secret-plans', private: true },
    { id: 'C0DESIGNX', name: 'design' },
    { id: 'C0DESIGNOPS', name: 'design-ops' },
    { id: 'C0OLD', name: 'old-designs', archived: true },
    { id: 'D0ALICE', kind: 'im', user: 'U0ALICE' },
  ],
  maxFileBytes: GIB,
  uploadsPerMinute: 0,
  uploadBurst: 0,
  uploadUrlTtlMs: 600_000,
  listsPerMinute: 0,
  filesPerCompletion: 14,
  completionAnswer: 'documented',
  repeatCompletion: 'file_not_found',
  shareDelayMs: 0,
  // Alice has a DM with the test token's user (D0ALICE); Bob has none yet. Slackbot is listed
  // by Slack's users.list in every workspace, with is_bot false.
  users: [
    { id: 'U0TEST', name: 'tester', realName: 'Terry Tester', displayName: 'terry' },
    { id: 'U0OTHER', name: 'other', realName: 'Otto Other' },
    { id: 'U0ALICE', name: 'alice', realName: 'Alice Liddell', displayName: 'alice' },
    { id: 'U0BOB', name: 'bob.builder', realName: 'Bob Builder', displayName: 'Bobby' },
    { id: 'U0GONE', name: 'gone', realName: 'Former Colleague', deleted: true },
    { id: 'USLACKBOT', name: 'slackbot', realName: 'Slackbot' },
  ],
  oauth: defaultOAuthConfig,
});

/** What `npm run service` uses for fields its config file leaves out: the contract's limits. */
export const cliDefaultConfig: ServiceConfig = Object.freeze({
  ...defaultTestConfig,
  uploadsPerMinute: 20,
  listsPerMinute: 20,
});

const channelId = z
  .string()
  .min(1)
  .regex(/^[^\s,]+$/, 'a channel ID holds no whitespace or comma');

const userSpec = z
  .object({
    id: z
      .string()
      .regex(/^[UW][A-Z0-9]+$/, 'a user ID is U or W and upper-case letters and digits'),
    name: z.string().min(1),
    realName: z.string().optional(),
    displayName: z.string().optional(),
    deleted: z.boolean().optional(),
    bot: z.boolean().optional(),
  })
  .strict();

const channelSpec = z
  .object({
    id: channelId,
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,79}$/, 'a channel name is lower case, without # or spaces')
      .optional(),
    private: z.boolean().optional(),
    archived: z.boolean().optional(),
    kind: z.enum(['channel', 'im', 'mpim']).optional(),
    user: z.string().min(1).optional(),
    omitIsMember: z.boolean().optional(),
  })
  .strict();

const serviceConfigSchema = z
  .object({
    tokens: z.record(
      z.string().min(1),
      z
        .object({
          user: z.string().min(1),
          channels: z.array(channelId),
          name: z.string().optional(),
          scopes: z.array(z.string()).optional(),
        })
        .strict(),
    ),
    channels: z.array(z.union([channelId, channelSpec])),
    maxFileBytes: z.number().int().nonnegative(),
    uploadsPerMinute: z.number().finite().nonnegative(),
    uploadBurst: z.number().int().nonnegative(),
    uploadUrlTtlMs: z.number().int().positive(),
    listsPerMinute: z.number().finite().nonnegative(),
    filesPerCompletion: z.number().int().positive(),
    completionAnswer: z.enum(['documented', 'full']),
    repeatCompletion: z.enum(['file_not_found', 'posts-again']),
    shareDelayMs: z.number().int().nonnegative(),
    users: z.array(userSpec),
    oauth: oauthConfigSchema,
  })
  .partial()
  .strict();

/** Fills the fields `partial` leaves out from `base`, validating the result. Throws on bad input. */
export function resolveConfig(
  partial: unknown = {},
  base: ServiceConfig = defaultTestConfig,
): ServiceConfig {
  const parsed = serviceConfigSchema.safeParse(partial);
  if (!parsed.success) {
    throw new Error(`invalid service config: ${z.prettifyError(parsed.error)}`);
  }
  const given = parsed.data;
  // Copies, so a caller mutating its object later cannot change a running service.
  return {
    tokens: structuredClone(given.tokens ?? base.tokens),
    channels: structuredClone(given.channels ?? base.channels),
    maxFileBytes: given.maxFileBytes ?? base.maxFileBytes,
    uploadsPerMinute: given.uploadsPerMinute ?? base.uploadsPerMinute,
    uploadBurst: given.uploadBurst ?? base.uploadBurst,
    uploadUrlTtlMs: given.uploadUrlTtlMs ?? base.uploadUrlTtlMs,
    listsPerMinute: given.listsPerMinute ?? base.listsPerMinute,
    filesPerCompletion: given.filesPerCompletion ?? base.filesPerCompletion,
    completionAnswer: given.completionAnswer ?? base.completionAnswer,
    repeatCompletion: given.repeatCompletion ?? base.repeatCompletion,
    shareDelayMs: given.shareDelayMs ?? base.shareDelayMs,
    users: structuredClone(given.users ?? base.users),
    oauth: resolveOAuthConfig(given.oauth, base.oauth),
  };
}

/** Every configured conversation, described: a bare ID is a public channel named after itself. */
export function conversationsOf(config: ServiceConfig): Conversation[] {
  return config.channels.map((entry) => {
    if (typeof entry === 'string') {
      return { id: entry, name: entry, kind: 'channel', private: false, archived: false };
    }
    const kind = entry.kind ?? 'channel';
    return {
      id: entry.id,
      name: entry.name ?? entry.id,
      kind,
      // DMs and group DMs are private by nature.
      private: kind !== 'channel' || (entry.private ?? false),
      archived: entry.archived ?? false,
      ...(entry.user === undefined ? {} : { user: entry.user }),
      ...(entry.omitIsMember ? { omitIsMember: true } : {}),
    };
  });
}

export function channelExists(config: ServiceConfig, id: string): boolean {
  return config.channels.some((entry) => (typeof entry === 'string' ? entry : entry.id) === id);
}
