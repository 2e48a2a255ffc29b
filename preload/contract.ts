// The one IPC contract between the renderer and the main process: every method's channel,
// argument schema (validated in main before the handler runs) and signature (what the renderer
// sees on window.trayshare), and every event with its payload. The core methods and their types
// come from main/core/api.ts; the shell methods below need OS user-interface APIs.
// Nothing here can return the token: it is write-only from the renderer's side.
import { z } from 'zod';
import {
  type CoreApi,
  coreMethodArgs,
  type Snapshot,
  type UpdatesApi,
  type UpdateView,
  updateMethodArgs,
} from '../main/core/api';
import type { QueueItem } from '../main/core/model';
import type { Same } from '../main/portable/same-type';
import type { SetupLink } from '../main/portable/setup-link';

const shellMethodArgs = {
  pickFiles: z.tuple([]),
  copyText: z.tuple([z.string().max(10_000)]),
  openExternal: z.tuple([z.string().max(4096)]),
  takePendingPaths: z.tuple([]),
  desktopNotes: z.tuple([]),
  keepsDropWindowOnTop: z.tuple([]),
  takeSetupLink: z.tuple([]),
  readSetupLink: z.tuple([z.string().max(4096)]),
  openLogsFolder: z.tuple([]),
  copyDiagnostics: z.tuple([]),
} as const;

/** Methods the Electron shell implements itself (they need OS APIs). */
export interface ShellApi {
  /** Native file picker; resolves to the chosen paths (empty when cancelled). */
  pickFiles(): Promise<string[]>;
  copyText(text: string): Promise<void>;
  /** Opens https links only; anything else is refused. */
  openExternal(url: string): Promise<void>;
  /** Paths handed to the app (tray drop, file manager, shortcut) that the share sheet should show. */
  takePendingPaths(): Promise<string[]>;
  /** Notes about this desktop the OS does not tell (GNOME tray icons, Wayland shortcuts). */
  desktopNotes(): Promise<string[]>;
  /** False where the OS lets no app keep a window on top (Wayland): the setting says so. */
  keepsDropWindowOnTop(): Promise<boolean>;
  /** The team's set-up link that opened the app while the page was loading (then forgotten). */
  takeSetupLink(): Promise<SetupLink | null>;
  /** A set-up link pasted in the window, checked as one from the OS; refused with why. */
  readSetupLink(link: string): Promise<SetupLink>;
  /** Opens the folder of the log files in the file manager (the folder is main's, not asked). */
  openLogsFolder(): Promise<void>;
  /**
   * Puts the diagnostics on the clipboard: versions, protocols, the queue's counts and the last
   * log lines, redacted. Built and copied in main: the text never passes through the page.
   */
  copyDiagnostics(): Promise<void>;
}

/** What the renderer can call. */
export interface TrayshareApi extends CoreApi, ShellApi, UpdatesApi {}

/** Argument schemas, one tuple per method. The channel of method `m` is `trayshare:m`. */
export const methodArgs = { ...coreMethodArgs, ...shellMethodArgs, ...updateMethodArgs } as const;
export type MethodName = keyof typeof methodArgs;
export const methodNames = Object.keys(methodArgs) as MethodName[];
export const channelOf = (method: MethodName): string => `trayshare:${method}`;
/**
 * The preload tells main the paths of files the person dropped (pathForFile), so the share sheet
 * may show the images among them; not a method, so the page itself cannot name a path here.
 */
export const GIVEN_PATHS_CHANNEL = 'trayshare:person-gave-paths';

/** Events from main to the renderer, with their payloads. */
export interface TrayshareEvents {
  /** Updates changed (checked, downloaded, restarting…): Settings → About shows it. */
  'updates-changed': UpdateView;
  'queue-changed': QueueItem[];
  'history-changed': null;
  'settings-changed': Snapshot;
  /** Main asks the window to show the share sheet for these paths. */
  'share-requested': { paths: string[] };
  /** Main asks the window to show a view (from the tray menu or a notification). */
  'show-view': View;
  /** A team's set-up link (trayshare://setup…, checked in main): Settings offers Sign in with Slack with it. */
  'setup-link': SetupLink;
}
export type EventName = keyof TrayshareEvents;
export const eventNames: readonly EventName[] = [
  'updates-changed',
  'queue-changed',
  'history-changed',
  'settings-changed',
  'share-requested',
  'show-view',
  'setup-link',
];
export const eventChannelOf = (event: EventName): string => `trayshare:event:${event}`;

export type View = 'drop' | 'share' | 'queue' | 'history' | 'presets' | 'settings';

/** window.trayshare as the preload exposes it. */
export interface TrayshareBridge extends TrayshareApi {
  /** Subscribes to an event; the listener gets the payload only. Returns an unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: TrayshareEvents[E]) => void): () => void;
  /** The file-system path of a dropped or picked File (Electron's webUtils). */
  pathForFile(file: File): string;
}

// Compile-time check that every method has an argument schema and vice versa.
const contractIsComplete: Same<MethodName, keyof TrayshareApi> = true;
void contractIsComplete;

export type * from '../main/core/api';
export type * from '../main/core/model';
export type { SetupLink } from '../main/portable/setup-link';

// Compile-time check that each method's argument schema produces exactly the method's
// parameters: a schema that drifts from its method's signature fails here, naming the method
// ("Type 'true' is not assignable to type '"saveToken"'").
type SchemaDrift = {
  [M in MethodName]: Same<
    z.output<(typeof methodArgs)[M]>,
    Parameters<TrayshareApi[M]>
  > extends true
    ? never
    : M;
}[MethodName];
const schemasMatchParameters: [SchemaDrift] extends [never] ? true : SchemaDrift = true;
void schemasMatchParameters;
