// The one interface both ways of delivering a file implement (files-upload.ts, external.ts), so
// delivery picks a protocol once instead of branching on it at every step.
import type { QueueItem, Workspace } from '../model';
import type { AttemptHooks, ShareHooks } from '../queue/queue-api';
import type { AttemptResult, UploadJob } from '../upload/attempt';
import type { RetryPolicy } from '../upload/retry';
import type { Transport } from '../upload/transport';

/** What a protocol needs besides the job: how to reach the service, and what to say once. */
export interface ProtocolContext {
  transport: Transport;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** The token cannot read files, so links are missing; said once per workspace. */
  onLinksUnavailable: () => void;
}

/** Who the attempt is for, so what went wrong can name the file and the workspace. */
export interface Sending {
  item: QueueItem;
  workspace: Workspace;
}

export interface UploadProtocol {
  /** One message per file: the share's comment goes with its first file only. */
  readonly commentOnFirstOnly: boolean;
  /** One attempt at one queued file. */
  send(
    job: UploadJob,
    hooks: AttemptHooks,
    ctx: ProtocolContext,
    sending: Sending,
  ): Promise<AttemptResult>;
  /** Files of one share whose bytes are on the service, shared together; one result each. */
  complete(jobs: UploadJob[], hooks: ShareHooks, ctx: ProtocolContext): Promise<AttemptResult[]>;
}
