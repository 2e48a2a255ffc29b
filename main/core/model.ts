// Domain types shared by core, the Electron layer, the IPC contract and the renderer.
// Plain data only: everything here crosses IPC and is written to disk as JSON.
import type { FinishedState, ItemState } from '../portable/item-states';

export type Protocol = 'files.upload' | 'external';

export interface Workspace {
  id: string;
  name: string;
  /** https://… (http only for loopback hosts). The API lives at `${baseUrl}/api/…`. */
  baseUrl: string;
  protocol: Protocol;
  /** Largest file this workspace's service accepts; checked before queueing. */
  maxFileBytes: number;
  /** The Slack app's client ID this workspace signs in with (public, not a secret). */
  clientId?: string;
  /** The team the workspace signed in to; signing in again must pick the same one. */
  teamId?: string;
  /** How the token came: pasted ('token', also when absent) or by Sign in with Slack. */
  auth?: 'token' | 'slack';
  /** When the access token expires (epoch ms); the tokens themselves live only in the keychain. */
  tokenExpiresAt?: number;
  /** Who signed in, as auth.test names them ("alice"), to show "Signed in as @alice". */
  userName?: string;
  /** The team's name as Slack gives it ("Acme"), to show "in Acme". */
  teamName?: string;
}

export interface ChannelRef {
  id: string;
  label?: string;
}

export interface Preset {
  id: string;
  name: string;
  workspaceId: string;
  channels: ChannelRef[];
  /** Default comment, editable in the share sheet. Empty string for none. */
  comment: string;
}

export type TrayDropAction = 'share-sheet' | 'default-preset';

export interface Preferences {
  /** Electron accelerator, e.g. "CommandOrControl+Shift+U"; empty string disables it. */
  shortcut: string;
  /** The global shortcut for Capture (main/core/capture); empty string disables it. */
  captureShortcut: string;
  launchAtLogin: boolean;
  /** Look for a new version at start and every 6 hours (main/core/updates/update-policy.ts). */
  checkForUpdates: boolean;
  trayDropAction: TrayDropAction;
  dropWindowPinned: boolean;
  /** Uploads in flight at once, per workspace. */
  concurrency: number;
  /** "Share with Trayshare" in the file manager's context menu (installed per user). */
  fileManagerIntegration: boolean;
  /** Put the link of a delivered upload on the clipboard, for people who paste links elsewhere. */
  copyLinkOnDelivery: boolean;
  /** File names in the log (else only their kind and size); off unless the person turns it on. */
  detailedLogs: boolean;
  /** A screen capture opens in the share sheet's image editor straight away. */
  openCapturesInEditor: boolean;
  /** The image editor offers "Send smaller" for an image whose long edge is over this (pixels). */
  sendSmallerEdge: number;
  /**
   * Send photos and videos as they are, location and all. Off: their location, serial numbers,
   * owner names, thumbnails, XMP and IPTC are removed on the way out (main/core/metadata).
   */
  keepMetadata: boolean;
}

/** Why an upload did not (or may not have) reach the service. `code` is stable, `message` is for people. */
export type FailureClass =
  | 'input' // refused before sending: bad token, channels, base URL, file
  | 'credential'
  | 'target'
  | 'content'
  | 'transient'
  | 'unknown-outcome'
  | 'retired'
  | 'redirect'
  | 'other';

export interface FailureReason {
  class: FailureClass;
  /** Service error code (`channel_not_found`), or ours (`http_502`, `connection_reset`, `file_changed`). */
  code: string;
  message: string;
  /** Target errors: the channels of the request. */
  channels?: string[];
  /**
   * not_in_channel / channel_not_found on a share to several channels: the ones refused, as far
   * as the channel list tells; the rest can still be sent to ("Send to the others").
   */
  refusedChannels?: string[];
  /** Redirects: where the service pointed. */
  location?: string;
  /** Transient errors: how long the service asked us to wait. */
  retryAfterMs?: number;
}

/** The service's file object, as much of it as the app uses; every field may be missing. */
export interface ServiceFile {
  id?: string;
  name?: string;
  title?: string;
  size?: number;
  permalink?: string;
  url_private?: string;
  channels?: string[];
  /** The ts of the message that carried the file (from files.info's `shares`), when known. */
  ts?: string;
}

export type { ItemState };

export interface QueueItem {
  id: string;
  shareId: string;
  workspaceId: string;
  channels: string[];
  comment: string;
  /** A reply in this thread of the one channel (the parent message's ts). */
  threadTs?: string;
  /**
   * How the destination read when the share was made (`#general`, `@bob`), by ID: its names
   * stay readable after the workspace and its channel list are gone.
   */
  labels?: Record<string, string>;
  /**
   * The workspace's name when the share was made: what the file's row says once the workspace
   * is removed (items queued by older versions have none).
   */
  workspaceName?: string;
  path: string;
  name: string;
  size: number;
  mtimeMs: number;
  /**
   * Sent without its location and other hidden details (main/core/metadata): what was found
   * when it was queued, and the length that is sent. Absent: sent as it is.
   */
  stripped?: StrippedFile;
  state: ItemState;
  /** Bytes of the file sent in the current attempt. */
  sent: number;
  attempts: number;
  createdAt: number;
  updatedAt: number;
  /** When a waiting item will be tried again (epoch ms). */
  retryAt?: number;
  error?: FailureReason;
  file?: ServiceFile;
}

export interface StrippedFile {
  /** What the file held that does not leave ("location", "thumbnail"…); may be empty. */
  removed: string[];
  /** The bytes sent, from the plan: a send that would send another length is refused. */
  size: number;
}

export interface HistoryEntry {
  /** `ITEM.N`: the queue item and how many times it finished (a retry replaces the row). */
  id: string;
  /** The share the file was sent in (entries from before shares had ids have none). */
  shareId?: string;
  at: number;
  workspaceId: string;
  workspaceName: string;
  channels: string[];
  /** The destination's names as the share read them, by ID (QueueItem.labels). */
  labels?: Record<string, string>;
  comment: string;
  path: string;
  name: string;
  size: number;
  outcome: FinishedState;
  error?: FailureReason;
  permalink?: string;
  fileId?: string;
  /** It was sent without its location and other hidden details: what was removed. */
  stripped?: string[];
}
