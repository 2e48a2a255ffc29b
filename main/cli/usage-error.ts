/** A mistake in how the command was called: exit code 2, message only. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** TRAYSHARE_TOKEN, for scripts: wins over the keychain. Blank counts as unset. */
export function envToken(): string | undefined {
  const token = process.env.TRAYSHARE_TOKEN?.trim();
  return token ? token : undefined;
}
