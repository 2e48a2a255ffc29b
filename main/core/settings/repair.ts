// Turns whatever JSON the settings file held into valid settings, saying what had to change.
// Policy: salvage, not all-or-nothing. A file that is not a settings object, or whose version is
// unknown or newer than this build, is reset whole. Otherwise every workspace, preset and
// preference is checked on its own; what is valid is kept, what is not is dropped (or reset to its
// default) and named in `problems`. Presets whose workspace was dropped go with it.
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import type { Preferences, Preset, Workspace } from '../model';
import { migrate, OLDEST_VERSION } from './migrations';
import {
  DEFAULT_PREFERENCES,
  emptySettings,
  preferenceSchemas,
  presetSchema,
  SETTINGS_VERSION,
  type Settings,
  workspaceSchema,
} from './schema';
import { scrubTokens } from './tokens-in-file';

export interface Repair {
  settings: Settings;
  /** Plain sentences: what was dropped or reset. Empty when the data was usable as it was. */
  problems: string[];
  /** Where token-shaped fields were found and removed (paths only, never values). */
  tokenFields: string[];
  /** Nothing could be used: settings are the defaults. */
  reset: boolean;
  /** The data on disk differs from `settings` (migrated, filled in, repaired) and should be written. */
  rewrite: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function label(kind: string, item: unknown, index: number): string {
  const name = isRecord(item) && typeof item.name === 'string' ? item.name.trim() : '';
  return name ? `${kind} ${short(name)}` : `${kind} #${index + 1}`;
}

function resetAll(problem: string, tokenFields: string[]): Repair {
  return {
    settings: emptySettings(),
    problems: [problem],
    tokenFields,
    reset: true,
    rewrite: true,
  };
}

/** Checks and repairs parsed settings data (`undefined` = no file yet). */
export function repairSettings(parsed: unknown): Repair {
  if (parsed === undefined) {
    return {
      settings: emptySettings(),
      problems: [],
      tokenFields: [],
      reset: false,
      rewrite: false,
    };
  }
  const scrubbed = scrubTokens(parsed, 'remove');
  const tokenFields = scrubbed.found;
  const raw = scrubbed.data;
  if (!isRecord(raw)) {
    return resetAll(
      `it does not hold a settings object (it holds ${Array.isArray(raw) ? 'a list' : raw === null ? 'null' : `a ${typeof raw}`})`,
      tokenFields,
    );
  }
  if (Object.keys(raw).length === 0) {
    return {
      settings: emptySettings(),
      problems: [],
      tokenFields,
      reset: false,
      rewrite: tokenFields.length > 0,
    };
  }

  // A file without a version is taken as hand-written in the current format.
  const version = raw.version ?? SETTINGS_VERSION;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < OLDEST_VERSION) {
    return resetAll(`its settings version ${JSON.stringify(version)} is unknown`, tokenFields);
  }
  if (version > SETTINGS_VERSION) {
    return resetAll(
      `it was written by a newer Trayshare (settings version ${version}; this version reads up to ${SETTINGS_VERSION})`,
      tokenFields,
    );
  }
  const data = migrate(raw, version);
  const problems: string[] = [];

  const workspaces = salvageWorkspaces(data.workspaces, problems);
  const presets = salvagePresets(data.presets, workspaces, problems);
  const defaultPresetId = salvageDefault(data.defaultPresetId, presets, problems);
  const preferences = salvagePreferences(data.preferences, problems);

  const settings: Settings = {
    version: SETTINGS_VERSION,
    workspaces,
    presets,
    defaultPresetId,
    preferences,
  };
  return {
    settings,
    problems,
    tokenFields,
    reset: false,
    rewrite: tokenFields.length > 0 || !isDeepStrictEqual(settings, parsed),
  };
}

function salvageWorkspaces(value: unknown, problems: string[]): Workspace[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push('the workspace list was not a list, so it was emptied');
    return [];
  }
  const kept: Workspace[] = [];
  value.forEach((item, index) => {
    const parsed = workspaceSchema.safeParse(item);
    const what = label('workspace', item, index);
    if (!parsed.success) {
      problems.push(`${what} was dropped (${firstIssue(parsed.error)})`);
      return;
    }
    const w = parsed.data;
    if (kept.some((k) => k.id === w.id)) {
      problems.push(`${what} was dropped (its id repeats another workspace's)`);
    } else if (kept.some((k) => k.name.toLowerCase() === w.name.toLowerCase())) {
      problems.push(`${what} was dropped (another workspace has the same name)`);
    } else {
      kept.push(w);
    }
  });
  return kept;
}

function salvagePresets(value: unknown, workspaces: Workspace[], problems: string[]): Preset[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push('the preset list was not a list, so it was emptied');
    return [];
  }
  const kept: Preset[] = [];
  value.forEach((item, index) => {
    const parsed = presetSchema.safeParse(item);
    const what = label('preset', item, index);
    if (!parsed.success) {
      problems.push(`${what} was dropped (${firstIssue(parsed.error)})`);
      return;
    }
    const p = parsed.data;
    if (!workspaces.some((w) => w.id === p.workspaceId)) {
      problems.push(`${what} was dropped (its workspace is missing)`);
    } else if (kept.some((k) => k.id === p.id)) {
      problems.push(`${what} was dropped (its id repeats another preset's)`);
    } else if (kept.some((k) => k.name.toLowerCase() === p.name.toLowerCase())) {
      problems.push(`${what} was dropped (another preset has the same name)`);
    } else {
      kept.push(p);
    }
  });
  return kept;
}

function salvageDefault(value: unknown, presets: Preset[], problems: string[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && presets.some((p) => p.id === value)) return value;
  problems.push('the default preset was missing, so there is no default preset now');
  return null;
}

function salvagePreferences(value: unknown, problems: string[]): Preferences {
  const preferences: Preferences = { ...DEFAULT_PREFERENCES };
  if (value === undefined) return preferences;
  if (!isRecord(value)) {
    problems.push('the preferences were not readable, so all were reset to their defaults');
    return preferences;
  }
  const keys = Object.keys(preferenceSchemas) as (keyof Preferences)[];
  for (const key of keys) {
    // A preference added after the file was written is simply missing: take its default quietly.
    if (!(key in value)) continue;
    const parsed = preferenceSchemas[key].safeParse(value[key]);
    if (parsed.success) {
      (preferences as unknown as Record<string, unknown>)[key] = parsed.data;
    } else {
      problems.push(
        `the preference "${key}" (${short(value[key])}) was invalid and was reset to ${JSON.stringify(DEFAULT_PREFERENCES[key])}`,
      );
    }
  }
  return preferences;
}
