// The settings file's shape (current version) and its defaults. zod is the one source of truth:
// the file is checked item by item with these schemas, so a broken entry can be dropped while the
// rest is kept, and the TypeScript types of the data come from model.ts, checked below.
import { z } from 'zod';
import { MAX_CHANNELS, normaliseChannels } from '../../portable/channels';
import { checkBaseUrl } from '../../portable/credentials';
import type { Same } from '../../portable/same-type';
import type { Preferences, Preset, Workspace } from '../model';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_FILE_BYTES, MAX_CONCURRENCY } from './defaults';

/** The version this build writes. Older files are migrated (migrations.ts); newer ones are refused. */
export const SETTINGS_VERSION = 2;

/**
 * Ctrl+Shift+U is IBus's Unicode entry on Linux desktops (GNOME, Ubuntu), which would swallow
 * it; Ctrl+Alt+U is free there. Elsewhere Ctrl+Alt is AltGr on many Windows layouts, so
 * macOS and Windows keep Cmd/Ctrl+Shift+U.
 */
export function defaultShortcut(platform: NodeJS.Platform): string {
  return platform === 'linux' ? 'Control+Alt+U' : 'CommandOrControl+Shift+U';
}

/**
 * ⌘⇧2 / Ctrl+Shift+2: next to the OS's own screenshot keys without taking one. macOS takes
 * ⌘⇧3, ⌘⇧4 and ⌘⇧5 (and ⌘⇧6, the Touch Bar); Windows takes Win+Shift+S and PrtScn; GNOME
 * and KDE take Print with Shift, Alt or Ctrl. None of them uses Ctrl+Shift+2 (⌘⇧2), and
 * Ctrl+Alt (the share shortcut's Linux choice) stays clear of AltGr on Windows layouts.
 */
const DEFAULT_CAPTURE_SHORTCUT = 'CommandOrControl+Shift+2';

export const DEFAULT_PREFERENCES: Readonly<Preferences> = Object.freeze({
  shortcut: defaultShortcut(process.platform),
  captureShortcut: DEFAULT_CAPTURE_SHORTCUT,
  launchAtLogin: false,
  checkForUpdates: true,
  trayDropAction: 'share-sheet',
  dropWindowPinned: false,
  concurrency: DEFAULT_CONCURRENCY,
  fileManagerIntegration: false,
  copyLinkOnDelivery: false,
  detailedLogs: false,
  openCapturesInEditor: false,
  sendSmallerEdge: 2560,
  keepMetadata: false,
});

const id = z.string().trim().min(1).max(200);
const name = z.string().trim().min(1).max(200);

export const baseUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .superRefine((value, ctx) => {
    const check = checkBaseUrl(value);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message });
  })
  // One spelling per address: no trailing slash (apiUrl adds "/api/…").
  .transform((value) => value.replace(/\/+$/, ''));

export const workspaceSchema = z.object({
  id,
  name,
  baseUrl: baseUrlSchema,
  protocol: z.enum(['files.upload', 'external']).default('files.upload'),
  maxFileBytes: z.number().int().positive().default(DEFAULT_MAX_FILE_BYTES),
  clientId: z.string().trim().min(1).max(200).optional(),
  teamId: z.string().trim().min(1).max(200).optional(),
  auth: z.enum(['token', 'slack']).optional(),
  tokenExpiresAt: z.number().int().nonnegative().optional(),
  userName: z.string().trim().min(1).max(200).optional(),
  teamName: z.string().trim().min(1).max(200).optional(),
});

const channelRefSchema = z.object({
  id: z.string().max(200),
  label: z
    .string()
    .max(200)
    .optional()
    .transform((label) => label?.trim() || undefined),
});

/** Channel refs with normaliseChannels' rules on the IDs; the first label of a repeated ID wins. */
export const channelRefsSchema = z
  .array(channelRefSchema)
  .max(MAX_CHANNELS * 10)
  .transform((refs, ctx) => {
    const check = normaliseChannels(refs.map((r) => r.id));
    if (!check.ok) {
      ctx.addIssue({ code: 'custom', message: check.error });
      return z.NEVER;
    }
    return check.channels.map((channel) => {
      const label = refs.find((r) => r.id.trim() === channel)?.label;
      return label ? { id: channel, label } : { id: channel };
    });
  });

export const presetSchema = z.object({
  id,
  name,
  workspaceId: id,
  channels: channelRefsSchema,
  comment: z.string().max(40_000).default(''),
});

/** Each preference on its own, so one bad value resets only itself. */
export const preferenceSchemas = {
  shortcut: z.string().max(100),
  captureShortcut: z.string().max(100),
  launchAtLogin: z.boolean(),
  checkForUpdates: z.boolean(),
  trayDropAction: z.enum(['share-sheet', 'default-preset']),
  dropWindowPinned: z.boolean(),
  concurrency: z.number().int().min(1).max(MAX_CONCURRENCY),
  fileManagerIntegration: z.boolean(),
  copyLinkOnDelivery: z.boolean(),
  detailedLogs: z.boolean(),
  openCapturesInEditor: z.boolean(),
  sendSmallerEdge: z.number().int().min(320).max(16_384),
  keepMetadata: z.boolean(),
} satisfies { [K in keyof Preferences]: z.ZodType<Preferences[K]> };

const preferencesSchema = z.object(preferenceSchemas);

export interface Settings {
  version: typeof SETTINGS_VERSION;
  workspaces: Workspace[];
  presets: Preset[];
  defaultPresetId: string | null;
  preferences: Preferences;
}

export function emptySettings(): Settings {
  return {
    version: SETTINGS_VERSION,
    workspaces: [],
    presets: [],
    defaultPresetId: null,
    preferences: { ...DEFAULT_PREFERENCES },
  };
}

// Compile-time checks that what the schemas produce is exactly the domain types.
const workspaceMatches: Same<z.output<typeof workspaceSchema>, Workspace> = true;
const presetMatches: Same<z.output<typeof presetSchema>, Preset> = true;
const preferencesMatch: Same<z.output<typeof preferencesSchema>, Preferences> = true;
void [workspaceMatches, presetMatches, preferencesMatch];
