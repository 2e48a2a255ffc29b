// What each of the service's error codes means for the app: its class (which decides whether
// the queue stops, fails the item or retries) and the sentence a person reads.
import { DOCUMENTED_ERRORS, type ServiceErrorInfo } from './documented-errors';

/** "C1", "C1 or C2", "one of C1, C2, C3". */
export function channelList(channels: readonly string[]): string {
  if (channels.length === 0) return 'the channels of this upload';
  if (channels.length === 1) return channels[0]!;
  if (channels.length === 2) return `${channels[0]} or ${channels[1]}`;
  return `one of ${channels.join(', ')}`;
}

const NEW_TOKEN = 'Paste a new token for this workspace in Settings.';
const MAY_BE_DELIVERED = 'It may have been delivered: check the channel before sending it again.';

const RETIRED: ServiceErrorInfo = {
  class: 'retired',
  message: () =>
    "This service no longer offers files.upload. Switch the workspace to Slack's external upload protocol in Settings and send it again.",
};

/**
 * Every code the contract names, and every other code Slack documents for the methods read
 * through this table (documented-errors.ts). Anything else is class 'other' with the raw code.
 */
export const SERVICE_ERRORS: Record<string, ServiceErrorInfo> = {
  ...DOCUMENTED_ERRORS,
  // credential: stop the workspace's queue and ask for a new token
  not_authed: {
    class: 'credential',
    message: () => `The service received no token with the upload. ${NEW_TOKEN}`,
  },
  invalid_auth: {
    class: 'credential',
    message: () => `The service does not accept this token. ${NEW_TOKEN}`,
  },
  token_revoked: {
    class: 'credential',
    message: () => `This token has been revoked. ${NEW_TOKEN}`,
  },
  token_expired: {
    class: 'credential',
    message: () => `This token has expired. ${NEW_TOKEN}`,
  },
  account_inactive: {
    class: 'credential',
    message: () => `The account this token belongs to has been deactivated. ${NEW_TOKEN}`,
  },
  missing_scope: {
    class: 'credential',
    message: (ctx) =>
      `This token may not upload files (it lacks the ${ctx.needed ?? 'files:write'} permission). Add the scope to the app, reinstall it, and paste the new token in Settings.`,
  },
  not_allowed_token_type: {
    class: 'credential',
    message: () =>
      'This kind of token cannot upload files: use a bot token (xoxb-) or a user token (xoxp-).',
  },
  no_permission: {
    class: 'credential',
    message: () =>
      'The workspace does not allow this token to upload files: ask a workspace admin, or paste another token in Settings.',
  },
  // target: fail this upload, name the channels
  channel_not_found: {
    class: 'target',
    message: (ctx) =>
      `Channel ${channelList(ctx.channels)} was not found: check the ID (it looks like C0123ABCD), and for a private channel invite the app first.`,
  },
  invalid_channel: {
    class: 'target',
    message: (ctx) => `${channelList(ctx.channels)}: not a valid channel ID in this workspace.`,
  },
  not_in_channel: {
    class: 'target',
    message: (ctx) =>
      `Trayshare's token is not a member of ${channelList(ctx.channels)}: invite the app to the channel.`,
  },
  posting_to_general_channel_denied: {
    class: 'target',
    message: (ctx) =>
      `Only admins may post to this workspace's general channel (${channelList(ctx.channels)}): pick another channel.`,
  },
  // Slack: "User is not authorized to post to channel" (slack-api-ref
  // methods/files/files.completeUploadExternal.json), e.g. an announcement-only channel.
  posting_to_channel_denied: {
    class: 'target',
    message: (ctx) =>
      `The token's user may not post to ${channelList(ctx.channels)}: pick another channel, or ask its admins.`,
  },
  channels_limit_exceeded: {
    class: 'target',
    message: (ctx) =>
      `Too many channels for one upload (${ctx.channels.length}): the service refused ${channelList(ctx.channels)}. Share to fewer channels at once.`,
  },
  // content: fail this upload
  no_file_data: {
    class: 'content',
    message: () => 'The service received no file data with the upload.',
  },
  invalid_form_data: {
    class: 'content',
    message: () => 'The service could not read the upload form.',
  },
  blocked_file_type: {
    class: 'content',
    message: () => 'This workspace does not allow files of this type.',
  },
  file_uploads_disabled: {
    class: 'content',
    message: () => 'File uploads are turned off in this workspace.',
  },
  storage_limit_reached: {
    class: 'content',
    message: () => 'This workspace has used up its file storage: free some space first.',
  },
  file_upload_size_restricted: {
    class: 'content',
    message: () => 'The file is larger than this workspace allows.',
  },
  // transient: retried with backoff
  ratelimited: {
    class: 'transient',
    message: () => 'The service is limiting how fast uploads may be sent (rate limited).',
  },
  service_unavailable: {
    class: 'transient',
    message: () => 'The service is temporarily unavailable.',
  },
  request_timeout: {
    class: 'transient',
    message: () =>
      'The service did not receive the whole upload (it timed out waiting); nothing was delivered.',
  },
  // outcome unknown: no automatic retry
  fatal_error: {
    class: 'unknown-outcome',
    message: () => `The service failed partway through the upload. ${MAY_BE_DELIVERED}`,
  },
  // retired: offer the external upload protocol
  method_deprecated: RETIRED,
  deprecated_endpoint: RETIRED,
  unknown_method: RETIRED,
};

/** A code as it may be shown: the service's text, cut short and without control characters. */
export function printableCode(code: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this drops
  const clean = code.replace(/[\u0000-\u001f\u007f]/g, '');
  return clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
}

export function serviceError(code: string): ServiceErrorInfo {
  if (Object.hasOwn(SERVICE_ERRORS, code)) return SERVICE_ERRORS[code]!;
  return {
    class: 'other',
    // A code the contract does not name: show it as it came (it is what the service's admins and
    // documentation know it by), and say what the person can do.
    message: () =>
      `The service answered with the error "${printableCode(code)}", which Trayshare does not know. Look the code up in the service's API documentation or ask its admin; Retry sends the file again.`,
  };
}

export { MAY_BE_DELIVERED };
