// What the durable upload queue offers and needs: its public interface, the hooks one attempt
// at an item gets, and the dependencies it is opened with. The queue itself is upload-queue.ts;
// its parts are item-store.ts (the journal-backed items), scheduler.ts (which item goes next),
// share-groups.ts (files of one share completed together) and queue-events.ts (listeners).
import type { HistoryStore } from '../history/history-store';
import type { QueueItem } from '../model';
import type { AttemptResult } from '../upload/attempt';
import type { RetryPolicy } from '../upload/retry';

export interface AttemptHooks {
  signal: AbortSignal;
  /** File bytes sent so far in this attempt. */
  onProgress: (sent: number) => void;
  /** Journals "body complete" and fsyncs it; the engine awaits it before the last bytes go. */
  beforeBodyComplete: () => Promise<void>;
  /** The last checkpoint an earlier attempt at this item saved, if any. */
  resume?: unknown;
  /**
   * Journals (with fsync) where this attempt got to; the next attempt at this item, after a
   * failure, a restart or a crash, gets it as `resume`. null clears it. An attempt that leaves a
   * checkpoint takes on deciding what is safe to repeat: an item interrupted after its body was
   * complete goes again from its checkpoint instead of becoming 'unknown'.
   */
  checkpoint: (data: unknown) => Promise<void>;
  /**
   * Given when the item's share has other files and the queue can complete files together
   * (`QueueDeps.completeShare`): an attempt whose bytes are on the service, checkpointed, hands
   * over here instead of completing alone, and returns what the share's completion gives it.
   */
  awaitShare?: () => Promise<AttemptResult>;
}

/** One completion of several files of a share (see share-groups.ts). */
export interface ShareHooks {
  signal: AbortSignal;
  /** Each file's last checkpoint, in the group's order. */
  resumes: unknown[];
  /** Journals (fsync) every file's new checkpoint in one write; null clears one. */
  checkpoint: (data: unknown[]) => Promise<void>;
  /** Journals "body complete" for every file of the group before the last bytes go. */
  beforeBodyComplete: () => Promise<void>;
  /** False for a later message of the share: the comment went with its first message. */
  withComment: boolean;
}

export interface QueueDeps {
  /** Folder of the journal (`queue.jsonl`) and its lock. */
  dir: string;
  /** One attempt at one item (delivery/delivery.ts: the workspace's protocol, URL and token). */
  runAttempt: (item: QueueItem, opts: AttemptHooks) => Promise<AttemptResult>;
  /**
   * Completes files of one share together (Slack's external protocol: one message). Without
   * it every item completes alone. One result per item, in order.
   */
  completeShare?: (items: QueueItem[], hooks: ShareHooks) => Promise<AttemptResult[]>;
  /**
   * A file of a share that completes together waits for a slot and for nothing else: work that
   * takes no slot and shares nothing may start for it (the external protocol asks for its upload
   * address). Called once each time the item comes to wait so; `signal` ends with the queue.
   * The item stays queued ("waiting for a free slot"): nothing of its bytes goes before its slot.
   */
  prepare?: (item: QueueItem, signal: AbortSignal) => void;
  /** Items in flight at once per workspace (read whenever a slot may be filled). */
  concurrency: () => number;
  /** The workspace's file size limit, checked when paths are queued. */
  maxFileBytes: (workspaceId: string) => number;
  now?: () => number;
  /** Waits used for backoff and rate-limit pauses; default setTimeout. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  retry?: Partial<RetryPolicy>;
  history: HistoryStore;
  /** Names the workspace in history entries (else the history store's resolver does). */
  workspaceName?: (workspaceId: string) => string | undefined;
  /** Start with the global pause on (the tray's pause, kept by the settings). */
  startPaused?: boolean;
  /**
   * Files waiting for a new token stay waiting when the queue opens (their workspace stopped),
   * instead of being tried again: for a process that only looks at the queue.
   */
  keepTokenWaits?: boolean;
  /** Rate-limit answers one item may wait out before it fails. Default 30. */
  maxRateLimitWaits?: number;
  /** On close, how long to wait for answers to requests whose body is complete. Default 5000. */
  closeGraceMs?: number;
  /** Compact the journal when it has more than this many records beyond the live ones. Default 1000. */
  compactAfterRecords?: number;
}

export interface EnqueueRequest {
  workspaceId: string;
  channels: string[];
  comment: string;
  paths: string[];
  /** Reply in this thread (exactly one channel). */
  threadTs?: string;
  /** files.upload makes one message per file: the comment goes with the first file only. */
  commentOnFirstOnly?: boolean;
  /** The workspace's file size limit as intake read it; else the queue reads the settings. */
  maxFileBytes?: number;
  /** The workspace's name as intake read it, for the share's History entries. */
  workspaceName?: string;
  /** The destination's names as intake knew them (QueueItem.labels). */
  labels?: Record<string, string>;
  /** Send photos and videos without their location and other hidden details (QueueItem.stripped). */
  stripMetadata?: boolean;
}

export interface EnqueueResult {
  shareId: string;
  items: QueueItem[];
  refused: { path: string; reason: string; code?: string }[];
}

export interface UploadQueue {
  /** What opening repaired in the journal, if anything. */
  repairNotice(): string | undefined;
  enqueue(req: EnqueueRequest): Promise<EnqueueResult>;
  /** Items in queue order (copies). */
  list(): QueueItem[];
  /** Queued or waiting: cancelled at once; sending: the request is aborted. Finished: nothing. */
  cancel(id: string): Promise<void>;
  /** A failed, unknown or cancelled item goes back to the queue as the same item, attempts reset. */
  retry(id: string, opts?: { channels?: string[] }): Promise<void>;
  /**
   * Several finished items of one share again, queued before any of them starts, so that on the
   * external protocol they complete together again (one message), not one by one.
   */
  retryTogether(ids: readonly string[], opts?: { channels?: string[] }): Promise<void>;
  /** Removes finished items from the queue (they stay in history). */
  clearFinished(): Promise<void>;
  /** The tray's pause: no new item starts; items in flight finish. */
  setPaused(paused: boolean): void;
  paused(): boolean;
  /** After a new token: the workspace's waiting items go again. */
  resumeWorkspace(workspaceId: string): void;
  /** Fill free slots again (call after the concurrency setting changed). */
  reschedule(): void;
  /** State changes at once; progress at most 10 times a second. */
  onChange(listener: (items: QueueItem[]) => void): () => void;
  onFinished(listener: (item: QueueItem) => void): () => void;
  /** Once per stop of a workspace for a refused token. */
  onNeedsToken(listener: (e: { workspaceId: string; message: string }) => void): () => void;
  /**
   * Resolves when nothing more can happen without the person: every unfinished item waits for
   * a new token or for the pause to be lifted (and the finished ones' history is written).
   */
  settled(): Promise<void>;
  /** Stops starting items, aborts requests whose body is not complete (they go again on next open). */
  close(): Promise<void>;
}
