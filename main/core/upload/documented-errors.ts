// Error codes Slack documents for the methods the client calls beyond the contract's rows, each
// given the class of the row it belongs to so none falls to "other": the methods whose answers
// go through the error table (files.upload, files.getUploadURLExternal,
// files.completeUploadExternal, auth.test), and files.info, conversations.list, users.list and
// auth.revoke, whose own readers keep the raw code but whose meaning is kept here too.
// Source: slack-ruby/slack-api-ref methods/{files,auth,conversations,users}/*.json (the commit in
// test/conformance/slack-facts.json, whose test checks this list stays complete). Sign in with
// Slack's oauth.v2.access codes are read by main/core/auth/sign-in-messages.ts.
import type { FailureClass } from '../model';

interface MessageContext {
  /** The channels of the request (target errors name them). */
  channels: readonly string[];
  /** Slack's `needed` field (missing_scope). */
  needed?: string;
}

/** What one error code means: its class and the sentence a person reads. */
export interface ServiceErrorInfo {
  class: FailureClass;
  message: (ctx: MessageContext) => string;
}

const SAY_TOKEN = 'Sign in again or paste another token for this workspace in Settings.';

function credential(why: string): ServiceErrorInfo {
  return { class: 'credential', message: () => `${why} ${SAY_TOKEN}` };
}

function content(why: string): ServiceErrorInfo {
  return { class: 'content', message: () => why };
}

/** The request itself was malformed: nothing was shared, and sending it again cannot help. */
function malformed(what: string): ServiceErrorInfo {
  return content(
    `The service could not read Trayshare's request (${what}); nothing was shared. Please report this.`,
  );
}

/** Slack: the workspace is moving into an Enterprise org and is unavailable meanwhile. */
const MIGRATING: ServiceErrorInfo = {
  class: 'transient',
  message: () => 'The workspace is being migrated and is briefly unavailable.',
};

export const DOCUMENTED_ERRORS: Record<string, ServiceErrorInfo> = {
  // credential: the token or its account cannot do this anywhere in the workspace
  accesslimited: credential(
    'This token may not use the service from this network (the workspace limits where it is used).',
  ),
  ekm_access_denied: credential("The workspace's administrators have suspended posting."),
  enterprise_is_restricted: credential('This token cannot be used from the Enterprise org.'),
  is_bot: credential('A legacy bot token cannot upload files.'),
  not_bearer_token: credential('The service expected a bearer token.'),
  two_factor_setup_required: credential(
    'The account this token belongs to must set up two-factor authentication first.',
  ),
  // target: the destination refuses; the channels are named
  invalid_thread_ts: {
    class: 'target',
    message: () =>
      'The thread to reply in was not found: reply to the thread\'s first message, or share without "in thread".',
  },
  slack_connect_file_upload_sharing_blocked: {
    class: 'target',
    message: () => 'File uploads are turned off in Slack Connect channels: pick another channel.',
  },
  // content: this file or this request is refused; never retried
  access_denied: content('The service refused access to this file (it is not this user’s).'),
  file_not_found: content('The service no longer holds this upload.'),
  file_type_not_allowed: content('This workspace does not allow files of this type.'),
  slack_connect_blocked_file_type: content('Slack Connect channels do not allow this file type.'),
  slack_connect_clip_sharing_blocked: content('Slack Connect channels do not allow clips.'),
  file_uploads_except_images_disabled: content('This workspace allows only image uploads.'),
  malware_detected: content('The service found malware in this file and refused it.'),
  post_contents_too_large: content('The message with this file is too large for the service.'),
  alt_txt_too_large: content('The file’s description is too long for the service.'),
  snippet_too_large: content('The file is too large to be shared as a snippet.'),
  // files.info: the file went, or canvases are off (a canvas file cannot be read)
  file_deleted: content('The file was deleted from the service.'),
  canvas_disabled_file_team: content("Canvases are turned off in the file's workspace."),
  canvas_disabled_user_team: content('Canvases are turned off in this workspace.'),
  canvas_globally_disabled: content('Canvases are turned off in this workspace.'),
  not_visible: content('This token may not see the file.'),
  template_not_visible: content('This token may not see the template.'),
  slack_connect_canvas_sharing_blocked: content('Slack Connect channels do not allow canvases.'),
  // conversations.list and users.list: a page asked for wrongly
  invalid_cursor: malformed('invalid_cursor'),
  invalid_limit: malformed('invalid_limit'),
  invalid_types: malformed('invalid_types'),
  limit_required: malformed('limit_required'),
  method_not_supported_for_channel_type: malformed('method_not_supported_for_channel_type'),
  invalid_blocks: malformed('invalid_blocks'),
  invalid_arg_name: malformed('invalid_arg_name'),
  invalid_array_arg: malformed('invalid_array_arg'),
  invalid_charset: malformed('invalid_charset'),
  invalid_post_type: malformed('invalid_post_type'),
  missing_post_type: malformed('missing_post_type'),
  missing_argument: malformed('missing_argument'),
  unknown_snippet_type: malformed('unknown_snippet_type'),
  unknown_subtype: malformed('unknown_subtype'),
  // transient: Slack says the workspace is unavailable only while it migrates
  org_login_required: MIGRATING,
  team_added_to_org: MIGRATING,
  // outcome unknown: Slack's internal_error, like fatal_error, may come after part of the work
  // was done (service contract, "outcome unknown" row); file_update_failed comes from the
  // completion, after the file may already have been shared.
  internal_error: {
    class: 'unknown-outcome',
    message: () =>
      'The service had an internal error partway through. It may have been delivered: check the channel before sending it again.',
  },
  file_update_failed: {
    class: 'unknown-outcome',
    message: () =>
      'The service failed while updating the file. It may have been delivered: check the channel before sending it again.',
  },
};
