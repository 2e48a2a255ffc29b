// Versioned migrations of the settings file. Each step takes the data of version N and returns
// version N+1; a step never throws on odd shapes: it converts what it recognises and leaves the
// rest for the per-item checks that follow (which drop and report what is still wrong).
import { SETTINGS_VERSION } from './schema';

type Data = Record<string, unknown>;
type Migration = (data: Data) => Data;

function isRecord(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Version 1 (Trayshare 0.0.x) kept a preset's channels as bare IDs and had no per-workspace
 * protocol or size limit. Version 2 keeps channels as `{id, label?}` (labels shown in the share
 * sheet), and makes protocol and maxFileBytes explicit.
 */
function v1ToV2(data: Data): Data {
  // 1024 ** 3 is the default as this step was written, not DEFAULT_MAX_FILE_BYTES: a migration
  // keeps converting old files the same way when today's default changes.
  const workspaces = Array.isArray(data.workspaces)
    ? data.workspaces.map((w) =>
        isRecord(w) ? { protocol: 'files.upload', maxFileBytes: 1024 ** 3, ...w } : w,
      )
    : data.workspaces;
  const presets = Array.isArray(data.presets)
    ? data.presets.map((p) => {
        if (!isRecord(p)) return p;
        const channels = Array.isArray(p.channels)
          ? p.channels.map((c) => (typeof c === 'string' ? { id: c } : c))
          : p.channels;
        return { ...p, channels, comment: typeof p.comment === 'string' ? p.comment : '' };
      })
    : data.presets;
  return { ...data, version: 2, workspaces, presets };
}

/** migrations[n] turns version n into version n + 1. */
const migrations: Readonly<Record<number, Migration>> = { 1: v1ToV2 };

export const OLDEST_VERSION = 1;

/** Brings data of `from` (OLDEST_VERSION ≤ from ≤ SETTINGS_VERSION) up to SETTINGS_VERSION. */
export function migrate(data: Data, from: number): Data {
  let current = data;
  for (let version = from; version < SETTINGS_VERSION; version++) {
    const step = migrations[version];
    if (!step) throw new Error(`No settings migration from version ${version}`);
    current = step(current);
  }
  return { ...current, version: SETTINGS_VERSION };
}
