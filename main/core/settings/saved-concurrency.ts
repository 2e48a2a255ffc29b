// The concurrency setting read straight from the settings file, for `send --base-url`: a share
// of several files there needs this one number, and opening the settings service (conf, zod,
// the keychain module) costs the CLI about 150 ms of CPU at start (measured: 0.08 s user for
// one file, 0.25 s once the service was opened). Anything unreadable or out of range is the
// default, as the settings service's repair would make it (schema.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './defaults';

/** `dir`: the user-data folder holding config.json (settings-file.ts). */
export function savedConcurrency(dir: string): number {
  let value: unknown;
  try {
    const settings = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
      preferences?: { concurrency?: unknown };
    };
    value = settings?.preferences?.concurrency;
  } catch {
    return DEFAULT_CONCURRENCY;
  }
  return typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= 1 &&
    value <= MAX_CONCURRENCY
    ? value
    : DEFAULT_CONCURRENCY;
}

/** The keepMetadata preference read the same way, for `send --base-url`; unreadable: off. */
export function savedKeepMetadata(dir: string): boolean {
  try {
    const settings = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
      preferences?: { keepMetadata?: unknown };
    };
    return settings?.preferences?.keepMetadata === true;
  } catch {
    return false;
  }
}
