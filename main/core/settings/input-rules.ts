// What a settings change must satisfy before it reaches the file: the API's schema, no token in
// a name, URL or comment, unique names, and workspaces and presets that still exist. Each rule
// throws a SettingsError whose message is shown to the person as it is.
import type { z } from 'zod';
import { checkBaseUrl } from '../../portable/credentials';
import { type CoreMethodName, coreMethodArgs } from '../api';
import type { ChannelRef, Preset, Workspace } from '../model';
import { baseUrlSchema, channelRefsSchema, type Settings } from './schema';
import { SettingsError, type SettingsErrorCode } from './settings-error';
import { scrubTokens } from './tokens-in-file';

export function fail(code: SettingsErrorCode, message: string): never {
  throw new SettingsError(code, message);
}

/** Validates a core method's arguments with its schema from api.ts. */
export function parseArgs<M extends CoreMethodName>(
  method: M,
  values: unknown[],
): z.output<(typeof coreMethodArgs)[M]> {
  const parsed = coreMethodArgs[method].safeParse(values);
  if (parsed.success) return parsed.data as z.output<(typeof coreMethodArgs)[M]>;
  const issue = parsed.error.issues[0];
  // The first path element is the argument's position: people know fields, not positions.
  const where = issue?.path.slice(1).join('.');
  return fail('invalid_input', `${where ? `${where}: ` : ''}${issue?.message ?? 'invalid input'}`);
}

/** A token pasted into a name, URL, label or comment would end up in the settings file. */
export function refuseTokenShaped(input: object): void {
  const { found } = scrubTokens(input, 'remove');
  if (found.length > 0) {
    fail(
      'invalid_input',
      `${found[0]} looks like a token. Tokens go only in the token field, which keeps them in the OS keychain.`,
    );
  }
}

export function trimmedName(value: string, what: string): string {
  const name = value.trim();
  if (name === '') fail('invalid_input', `Give the ${what} a name.`);
  return name;
}

export function checkedBaseUrl(value: string): string {
  const check = checkBaseUrl(value);
  if (!check.ok) fail(check.code as SettingsErrorCode, check.message);
  return baseUrlSchema.parse(value);
}

export function checkedChannels(refs: readonly ChannelRef[]): ChannelRef[] {
  const parsed = channelRefsSchema.safeParse(refs);
  if (parsed.success) return parsed.data;
  return fail('invalid_channels', parsed.error.issues[0]?.message ?? 'Invalid channel IDs.');
}

export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The names, for a message that says which ones exist. */
export function names(items: { name: string }[]): string {
  return items.map((i) => i.name).join(', ') || 'none yet';
}

export function requireWorkspace(settings: Settings, id: string): Workspace {
  return (
    settings.workspaces.find((w) => w.id === id) ??
    fail('not_found', 'That workspace no longer exists.')
  );
}

export function requirePreset(settings: Settings, id: string): Preset {
  return (
    settings.presets.find((p) => p.id === id) ?? fail('not_found', 'That preset no longer exists.')
  );
}
