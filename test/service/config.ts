// The reference service's settings: which tokens exist, what they may post to, and the limits
// the contract says the service enforces. One schema serves the CLI's config file and the
// programmatic `startReferenceService({ config })`, so both refuse the same mistakes.
import { z } from 'zod';

export interface TokenGrant {
  /** Slack-style user ID the token belongs to, e.g. U0TEST. */
  user: string;
  /** Channels this token may post to. */
  channels: string[];
  /** Display name auth.test reports as `user`; defaults to the user ID in lower case. */
  name?: string;
}

export interface ServiceConfig {
  tokens: Record<string, TokenGrant>;
  /** Channels that exist. */
  channels: string[];
  maxFileBytes: number;
  /** Token bucket size and refill per minute, per token; 0 turns the limit off. */
  uploadsPerMinute: number;
  /** External protocol: how long an upload_url (and bytes never completed) live. */
  uploadUrlTtlMs: number;
}

export const GIB = 1024 * 1024 * 1024;

export const defaultTestConfig: ServiceConfig = Object.freeze({
  tokens: {
    'xoxb-test-token': { user: 'U0TEST', channels: ['C0GENERAL', 'C0DESIGN', 'C0RANDOM'] },
    'xoxb-other-token': { user: 'U0OTHER', channels: ['C0RANDOM'] },
  },
  channels: ['C0GENERAL', 'C0DESIGN', 'C0RANDOM', 'C0SECRET'],
  maxFileBytes: GIB,
  uploadsPerMinute: 0,
  uploadUrlTtlMs: 600_000,
});

/** What `npm run service` uses for fields its config file leaves out: the contract's limits. */
export const cliDefaultConfig: ServiceConfig = Object.freeze({
  ...defaultTestConfig,
  uploadsPerMinute: 20,
});

const channelId = z
  .string()
  .min(1)
  .regex(/^[^\s,]+$/, 'a channel ID holds no whitespace or comma');

export const serviceConfigSchema = z
  .object({
    tokens: z.record(
      z.string().min(1),
      z
        .object({
          user: z.string().min(1),
          channels: z.array(channelId),
          name: z.string().optional(),
        })
        .strict(),
    ),
    channels: z.array(channelId),
    maxFileBytes: z.number().int().nonnegative(),
    uploadsPerMinute: z.number().finite().nonnegative(),
    uploadUrlTtlMs: z.number().int().positive(),
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
    channels: [...(given.channels ?? base.channels)],
    maxFileBytes: given.maxFileBytes ?? base.maxFileBytes,
    uploadsPerMinute: given.uploadsPerMinute ?? base.uploadsPerMinute,
    uploadUrlTtlMs: given.uploadUrlTtlMs ?? base.uploadUrlTtlMs,
  };
}
