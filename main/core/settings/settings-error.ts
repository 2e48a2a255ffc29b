// A refused settings change, with a message meant for the person (shown as it is in the UI and
// the CLI) and a stable code for code that needs to tell refusals apart.

export type SettingsErrorCode =
  | 'invalid_input'
  | 'not_found'
  | 'duplicate_name'
  | 'needs_base_url'
  | 'write_failed'
  /** Another process held the settings file's lock for too long: nothing was changed. */
  | 'settings_busy'
  /** A signed-in workspace may not move to another origin: its token belongs to the old one. */
  | 'signed_in_elsewhere'
  /** The workspace moved to another origin while its token was checked or signed in: nothing saved. */
  | 'workspace_moved'
  // From checkToken / checkBaseUrl (portable/credentials.ts) and normaliseChannels.
  | 'no_token'
  | 'token_is_url'
  | 'token_malformed'
  | 'base_url_invalid'
  | 'base_url_webhook'
  | 'base_url_credentials'
  | 'base_url_insecure'
  | 'invalid_channels';

export class SettingsError extends Error {
  readonly code: SettingsErrorCode;
  constructor(code: SettingsErrorCode, message: string) {
    super(message);
    this.name = 'SettingsError';
    this.code = code;
  }
}
