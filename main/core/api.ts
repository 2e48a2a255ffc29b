// The app's API as plain data: argument schemas (validated wherever a call enters from
// outside: IPC, the CLI, the browser harness) and the result types. preload/contract.ts maps
// these methods to IPC channels; the core app service implements them.
import { z } from 'zod';
import { imageTypeOf, MAX_EDITED_IMAGE_BYTES, type SheetImageType } from '../portable/image-bytes';
import { MAX_PASTED_IMAGE_BYTES } from '../portable/pasted-image-limit';
import type { Same } from '../portable/same-type';
import type { CaptureSource } from './capture/capture-outcome';
import type { CaptureResult, Capturer } from './capture/take-capture';
import type { HistoryEntry, Preferences, Preset, QueueItem, Workspace } from './model';
import type { UpdateView } from './updates/update-policy';
import type { DestinationsView, PathDescription, ProtocolProbe } from './views';

export type { Conversation, ConversationKind } from '../portable/conversation-types';
export type { Person } from '../portable/people-names';
export type { UpdateView } from './updates/update-policy';
export type { DestinationsView, PathDescription } from './views';

const id = z.string().min(1).max(200);
const text = (max: number) => z.string().max(max);
const protocol = z.enum(['files.upload', 'external']);
const channelRef = z.object({ id: text(200), label: text(200).optional() }).strict();
const path = z.string().min(1).max(4096);

const workspaceInput = z
  .object({ name: text(200).min(1), baseUrl: text(2000).min(1), protocol: protocol.optional() })
  .strict();
const workspacePatch = z
  .object({
    name: text(200).min(1).optional(),
    baseUrl: text(2000).min(1).optional(),
    protocol: protocol.optional(),
    maxFileBytes: z.number().int().positive().optional(),
  })
  .strict();
const presetInput = z
  .object({
    name: text(200).min(1),
    workspaceId: id,
    channels: z.array(channelRef).max(100),
    comment: text(40_000),
  })
  .strict();
const presetPatch = presetInput.partial().strict();
const preferencesPatch = z
  .object({
    shortcut: text(100).optional(),
    captureShortcut: text(100).optional(),
    launchAtLogin: z.boolean().optional(),
    checkForUpdates: z.boolean().optional(),
    trayDropAction: z.enum(['share-sheet', 'default-preset']).optional(),
    dropWindowPinned: z.boolean().optional(),
    concurrency: z.number().int().min(1).max(8).optional(),
    fileManagerIntegration: z.boolean().optional(),
    copyLinkOnDelivery: z.boolean().optional(),
    detailedLogs: z.boolean().optional(),
    openCapturesInEditor: z.boolean().optional(),
    sendSmallerEdge: z.number().int().min(320).max(16_384).optional(),
    keepMetadata: z.boolean().optional(),
  })
  .strict();
const shareTarget = z.union([
  z.object({ presetId: id }).strict(),
  z.object({ workspaceId: id, channels: z.array(text(200)).max(1000) }).strict(),
]);
const shareRequest = z
  .object({
    target: shareTarget,
    comment: text(40_000).optional(),
    /** A message link or ts: reply in that thread (one channel). */
    thread: text(2000).optional(),
    paths: z.array(path).min(1).max(1000),
    /** This share's photos and videos go as they are (else the keepMetadata preference decides). */
    keepMetadata: z.boolean().optional(),
  })
  .strict();
const conversationsQuery = z
  .object({
    refresh: z.boolean().optional(),
    wait: z.boolean().optional(),
    /** What is saved only, never fetching: for labels in listings. */
    cachedOnly: z.boolean().optional(),
  })
  .strict();
const pathsQuery = z
  .object({
    paths: z.array(path).max(1000),
    /** Whose size limit applies; without it, none. */
    workspaceId: id.optional(),
  })
  .strict();
const historyQuery = z
  .object({ search: text(500).optional(), limit: z.number().int().min(1).max(10_000).optional() })
  .strict();

const signInRequest = z
  .object({
    /** Given: sign this workspace in again (same team only). Absent: a new workspace. */
    workspaceId: id.optional(),
    baseUrl: text(2000).min(1),
    clientId: text(200).min(1),
  })
  .strict();
const signOutOptions = z.object({ evenIfWaiting: z.boolean().optional() }).strict();

/** A pasted PNG travels as base64: the same text over Electron's IPC and the browser harness. */
// An image edited in the share sheet: bytes (IPC's structured clone carries them as they are),
// bounded, and a PNG or JPEG by signature, checked before main writes anything.
const editedImage = z
  .instanceof(Uint8Array)
  .refine((bytes) => bytes.length <= MAX_EDITED_IMAGE_BYTES, {
    message: `larger than ${MAX_EDITED_IMAGE_BYTES} bytes`,
  })
  .refine(
    (bytes) => {
      const type = imageTypeOf(bytes);
      return type === 'image/png' || type === 'image/jpeg';
    },
    { message: 'not a PNG or JPEG image' },
  );

const pastedPng = z.base64().max(Math.ceil(MAX_PASTED_IMAGE_BYTES / 3) * 4);

/** Argument schemas of the core methods, one tuple per method. */
export const coreMethodArgs = {
  getSnapshot: z.tuple([]),
  addWorkspace: z.tuple([workspaceInput]),
  updateWorkspace: z.tuple([id, workspacePatch]),
  removeWorkspace: z.tuple([id]),
  setToken: z.tuple([id, z.string().min(1).max(10_000)]),
  saveToken: z.tuple([id, z.string().min(1).max(10_000)]),
  probeProtocol: z.tuple([text(2000).min(1), z.string().max(10_000)]),
  clearToken: z.tuple([id]),
  testConnection: z.tuple([id]),
  addPreset: z.tuple([presetInput]),
  updatePreset: z.tuple([id, presetPatch]),
  removePreset: z.tuple([id]),
  reorderPresets: z.tuple([z.array(id).max(1000)]),
  setDefaultPreset: z.tuple([id.nullable()]),
  setPreferences: z.tuple([preferencesPatch]),
  checkChannels: z.tuple([text(20_000)]),
  describePaths: z.tuple([pathsQuery]),
  share: z.tuple([shareRequest]),
  prepareShare: z.tuple([id, z.number().int().min(1).max(100_000)]),
  listQueue: z.tuple([]),
  cancelItem: z.tuple([id]),
  retryItem: z.tuple([id]),
  sendToOthers: z.tuple([id]),
  changeDestination: z.tuple([id, z.array(text(200)).min(1).max(100)]),
  clearFinished: z.tuple([]),
  setPaused: z.tuple([z.boolean()]),
  listHistory: z.tuple([historyQuery]),
  listConversations: z.tuple([id, conversationsQuery]),
  savePastedImage: z.tuple([pastedPng]),
  readCapture: z.tuple([path]),
  readImage: z.tuple([path]),
  saveEditedImage: z.tuple([editedImage, path]),
  discardCapture: z.tuple([path]),
  signInWithSlack: z.tuple([signInRequest]),
  confirmSignIn: z.tuple([id, z.boolean()]),
  cancelSignIn: z.tuple([]),
  signOut: z.tuple([id, signOutOptions.optional()]),
} as const;

/**
 * Argument schemas of the update methods: the Electron layer implements them
 * (main/electron/updates.ts) around the policy in main/core/updates/.
 */
export const updateMethodArgs = {
  getUpdates: z.tuple([]),
  checkUpdatesNow: z.tuple([]),
  restartToUpdate: z.tuple([]),
  cancelRestart: z.tuple([]),
} as const;

/** Updates as Settings → About uses them; each answers the state after the call. */
export interface UpdatesApi {
  getUpdates(): Promise<UpdateView>;
  /** "Check now": asks the feed whatever the automatic-checks preference says. */
  checkUpdatesNow(): Promise<UpdateView>;
  /** Restarts into the downloaded update once the queue is at rest; says it is waiting. */
  restartToUpdate(): Promise<UpdateView>;
  /** Keeps running; the downloaded update still installs on the next quit. */
  cancelRestart(): Promise<UpdateView>;
}

const updateArgsComplete: Same<keyof typeof updateMethodArgs, keyof UpdatesApi> = true;
void updateArgsComplete;

export type WorkspaceInput = z.infer<typeof workspaceInput>;
export type WorkspacePatch = z.infer<typeof workspacePatch>;
export type PresetInput = z.infer<typeof presetInput>;
export type PresetPatch = z.infer<typeof presetPatch>;
export type PreferencesPatch = z.infer<typeof preferencesPatch>;
export type ShareRequest = z.infer<typeof shareRequest>;
type PathsQuery = z.infer<typeof pathsQuery>;
type HistoryQuery = z.infer<typeof historyQuery>;
type ConversationsQuery = z.infer<typeof conversationsQuery>;
export type SignInRequest = z.infer<typeof signInRequest>;
export type SignOutOptions = z.infer<typeof signOutOptions>;

export interface WorkspaceView extends Workspace {
  hasToken: boolean;
  /** Set when the service has refused the saved token since it was saved (why, for people). */
  tokenRefused?: string;
  /** Signed in with Slack (auth 'slack'): as whom, where, and whether it ran out. */
  signedIn?: {
    /** "@alice" */
    user: string;
    /** "Acme" */
    team: string;
    /** The refresh token ran out or was revoked: offer "Sign in again". */
    expired: boolean;
  };
}

/** Why a sign-in ended without signing in; stable, for the window and scripts. */
export type SignInFailure =
  | 'cancelled'
  | 'access_denied'
  | 'timeout'
  | 'invalid_client_id'
  | 'bad_redirect_uri'
  | 'port_in_use'
  | 'no_browser'
  | 'service_unreachable'
  | 'wrong_team'
  /** Signing a workspace in again at another service than its own: refused. */
  | 'other_service'
  | 'keychain'
  | 'other';

/** How a sign-in ended: kept, or not (and nothing was saved). */
export type SignInEnd =
  | { ok: true; workspaceId: string; user: string; team: string }
  | { ok: false; reason: SignInFailure /** One plain sentence for people. */; message: string };

/**
 * Signed in at the service, but nothing kept yet: the person says whether this is their account
 * (confirmSignIn). Anyone on the computer who could read the consent page's address could have
 * approved it as themselves, so only who signed in crosses to the window, never a token.
 */
export interface SignInToConfirm {
  ok: 'confirm';
  /** Opaque: names the sign-in that waits in the core, and nothing else. */
  pendingId: string;
  /** "@alice" */
  user: string;
  /** "Globex" */
  team: string;
}

export type SignInResult = SignInEnd | SignInToConfirm;

export type SignOutResult =
  | {
      ok: true;
      /**
       * Whether the service confirmed the sign-in is over there. False: it could not be revoked
       * (unreachable, or refused), and may work there until it expires; the tokens are gone here
       * all the same.
       */
      revoked: boolean;
      /** One sentence that says which, for the window and the CLI. */
      message: string;
    }
  | { ok: false /** Items still queued for it. */; waiting: number };

export interface Snapshot {
  workspaces: WorkspaceView[];
  presets: Preset[];
  defaultPresetId: string | null;
  preferences: Preferences;
  paused: boolean;
  /** Trayshare's version (package.json's), for Settings → About. */
  version: string;
  /** Set when the settings file was unreadable and was reset; says what was kept and where. */
  settingsNotice?: string;
}

export interface ConnectionCheck {
  /** True when the service accepted the token. */
  ok: boolean;
  /** False when the service offers no way to check without uploading. */
  checked: boolean;
  message: string;
  user?: string;
  team?: string;
  /** True when the service refused the token itself (invalid_auth, token_revoked…). */
  refused?: boolean;
}

/** saveToken's answer: the check, and whether the token was kept (a refused one is not). */
export interface TokenSaved extends ConnectionCheck {
  saved: boolean;
}

type ChannelCheck = { ok: true; channels: string[] } | { ok: false; error: string };

export interface ShareResult {
  shareId: string;
  items: QueueItem[];
  /**
   * Paths refused before queueing (missing, unreadable, too large, a folder…), with why;
   * `code` is stable (not_found, too_large, folder_empty, …) for scripts.
   */
  refused: { path: string; reason: string; code?: string }[];
}

export interface PreferencesResult {
  preferences: Preferences;
  /** Set when the shortcut could not be registered (taken by another app, refused by the desktop). */
  shortcutError?: string;
  /** The same for the capture shortcut. */
  captureShortcutError?: string;
}

/** The core app service's methods: everything but what needs OS user-interface APIs. */
export interface CoreApi {
  getSnapshot(): Promise<Snapshot>;
  addWorkspace(input: WorkspaceInput): Promise<Workspace>;
  updateWorkspace(id: string, patch: WorkspacePatch): Promise<Workspace>;
  removeWorkspace(id: string): Promise<void>;
  setToken(workspaceId: string, token: string): Promise<void>;
  /**
   * Checks the token with auth.test, then saves it unless the service refused it; says who it
   * is for. A token that cannot be checked (no auth.test, no answer) is saved and said so.
   */
  saveToken(workspaceId: string, token: string): Promise<TokenSaved>;
  /** Which upload protocol the service at this address offers, asked with this token ('' : a guess). */
  probeProtocol(baseUrl: string, token: string): Promise<ProtocolProbe>;
  clearToken(workspaceId: string): Promise<void>;
  testConnection(workspaceId: string): Promise<ConnectionCheck>;
  addPreset(input: PresetInput): Promise<Preset>;
  updatePreset(id: string, patch: PresetPatch): Promise<Preset>;
  removePreset(id: string): Promise<void>;
  reorderPresets(ids: string[]): Promise<void>;
  setDefaultPreset(id: string | null): Promise<void>;
  setPreferences(patch: PreferencesPatch): Promise<PreferencesResult>;
  checkChannels(text: string): Promise<ChannelCheck>;
  /**
   * What each picked path would send, checked as Share would check it: a file's size, a
   * folder's file count and total, or why it would be refused (missing, empty folder…).
   */
  describePaths(query: PathsQuery): Promise<PathDescription[]>;
  share(request: ShareRequest): Promise<ShareResult>;
  /**
   * The share sheet is open for `files` files to this workspace: connections to its service
   * (API and upload hosts) open ahead, nothing is sent (share/prepare-share.ts).
   */
  prepareShare(workspaceId: string, files: number): Promise<void>;
  listQueue(): Promise<QueueItem[]>;
  cancelItem(id: string): Promise<void>;
  retryItem(id: string): Promise<void>;
  /**
   * A share refused by some of its channels goes again to the others (error.refusedChannels):
   * this item and the files of its share refused the same way, queued together.
   */
  sendToOthers(id: string): Promise<void>;
  /** A failed item goes again to other channels (names or IDs, checked as for a share). */
  changeDestination(id: string, channels: string[]): Promise<void>;
  clearFinished(): Promise<void>;
  setPaused(paused: boolean): Promise<void>;
  listHistory(query: HistoryQuery): Promise<HistoryEntry[]>;
  /**
   * The workspace's channels, private channels and DMs (cached; fetched in the background when
   * missing, older than a day, or `refresh`). Also the way to show `#name` for an ID: a
   * conversation's `name` by its `id`, falling back to the ID when it is not listed. With the
   * workspace's people (users.list, cached the same way), to show DMs and user IDs by name.
   */
  listConversations(workspaceId: string, query: ConversationsQuery): Promise<DestinationsView>;
  /**
   * Saves a pasted image (PNG, base64) as a file in the state folder, named for the time it was
   * pasted, and returns its path to share like any file. The file is removed once its upload is
   * delivered or cancelled or its queue row is cleared (pasted-images.ts).
   */
  savePastedImage(pngBase64: string): Promise<string>;
  /**
   * A screen capture of this run (takeCapture) as the share sheet shows it: how it was taken and
   * its PNG as base64; null for any path that is not one (the page reads no other file).
   */
  readCapture(path: string): Promise<CapturePreview | null>;
  /**
   * An image in the share sheet (a capture, a pasted or edited image, or a PNG, JPEG or WebP the
   * person handed the app) as bytes, for its thumbnail and the image editor; null for any other
   * path, a file over the size bound, or another format (the page reads no other file).
   */
  readImage(path: string): Promise<SheetImage | null>;
  /**
   * Keeps an image edited in the share sheet (PNG or JPEG bytes) as a new private file named
   * after `original`, which is left as it is; returns its path to share in the original's place.
   * The file goes once its share ends, or when the sheet is cancelled (discardCapture).
   */
  saveEditedImage(bytes: Uint8Array<ArrayBuffer>, original: string): Promise<string>;
  /**
   * The share sheet was cancelled with this capture or edited image in it: the file goes (a
   * queued one stays).
   */
  discardCapture(path: string): Promise<void>;
  /**
   * Sign in with Slack (OAuth 2.0 with PKCE through a loopback redirect): opens the browser on
   * the consent page and resolves when the person approved, refused, cancelled or waited too
   * long. Nothing is saved unless every step succeeded, and, for a new workspace or another
   * person than the one signed in before, unless the person confirms who signed in: then the
   * answer is a SignInToConfirm, and confirmSignIn finishes it.
   */
  signInWithSlack(request: SignInRequest): Promise<SignInResult>;
  /**
   * The answer to a SignInToConfirm: `keep` saves the workspace and its tokens; otherwise
   * nothing is saved and the tokens are revoked at the service. A sign-in that no longer waits
   * (cancelled, replaced by another, or left too long) ends as not kept.
   */
  confirmSignIn(pendingId: string, keep: boolean): Promise<SignInEnd>;
  /**
   * Ends a sign-in that waits for the browser with 'cancelled'; one that waits for the person's
   * confirmation ends unkept, its tokens revoked at the service.
   */
  cancelSignIn(): Promise<void>;
  /**
   * Revokes the token at the service (auth.revoke) and removes both tokens from the keychain;
   * refuses with the count of items still queued for the workspace unless evenIfWaiting.
   */
  signOut(workspaceId: string, options?: SignOutOptions): Promise<SignOutResult>;
}

export interface CapturePreview {
  source: CaptureSource;
  /** The PNG's bytes: IPC carries them as they are (structured clone), with no base64 step. */
  png: Uint8Array;
}

interface SheetImage {
  type: SheetImageType;
  bytes: Uint8Array;
}

export type CoreMethodName = keyof typeof coreMethodArgs;

// Compile-time check that every core method has an argument schema and vice versa.
const coreArgsComplete: Same<CoreMethodName, keyof CoreApi> = true;
void coreArgsComplete;

/** Events the core app service emits (the Electron layer forwards some to windows, tray and notifications). */
export interface CoreEvents {
  'queue-changed': QueueItem[];
  'history-changed': null;
  'settings-changed': Snapshot;
  /** An item reached delivered, failed, unknown or cancelled. */
  'item-finished': QueueItem;
  /** A workspace's queue stopped because its token was refused: ask for a new one. */
  'needs-token': { workspaceId: string; message: string };
  /** Said once per workspace per run, e.g. that links need the files:read scope. */
  notice: { workspaceId: string; message: string };
}
type CoreEventName = keyof CoreEvents;

/** The core app service: the CoreApi methods plus events. Built by createAppService (app-service.ts). */
export interface AppService extends CoreApi {
  on<E extends CoreEventName>(event: E, listener: (payload: CoreEvents[E]) => void): () => void;
  /**
   * Resolves when nothing more can happen without the person: every item is finished, or waits
   * for a new token or for the pause to be lifted (the CLI waits for this).
   */
  settled(): Promise<void>;
  /**
   * Paths the person handed the app (the tray, the file manager, the file picker, a drop in the
   * window): the images among them may be read back for the share sheet (readImage).
   */
  offerImages(paths: readonly string[]): void;
  /** savePastedImage for bytes the main process read itself (the clipboard, for the shortcut). */
  savePastedBytes(png: Uint8Array): Promise<string>;
  /**
   * Runs an OS capture tool (main/core/capture) and keeps its image as a private file in the
   * state folder, removed once its share is delivered or cancelled (or discardCapture).
   */
  takeCapture(capturer: Capturer, source: CaptureSource): Promise<CaptureResult>;
  /**
   * What was repaired (a damaged settings file, queue journal or history when opening; a damaged
   * channel list when it was read), to say once; [] if nothing.
   */
  repairNotices(): string[];
  /**
   * Watches the settings file until the returned function is called, so a workspace another
   * process removes meanwhile fails its waiting files as removed (the CLI, while a send runs;
   * the app watches from the start, AppServiceDeps.watchSettings).
   */
  watchSettings(): () => void;
  /** Stops taking work, aborts nothing that is journaled (it resumes on next start), closes files. */
  close(): Promise<void>;
}
