// Both ways of delivering a file implement one interface, UploadProtocol: files.upload (one
// request per file, one message each) and Slack's external upload protocol (each file's bytes
// on their own, then the files of a share completed together as one message). Delivery picks a
// protocol once (protocolOf) instead of branching on it at every step.
import type { Protocol, QueueItem, Workspace } from '../model';
import type { AttemptHooks, ShareHooks } from '../queue/queue-api';
import type { AttemptResult, UploadJob } from '../upload/attempt';
import { uploadOnce } from '../upload/engine';
import { completeExternalShare } from '../upload/external/complete';
import { asExternalCheckpoint, type ExternalCheckpoint } from '../upload/external/request';
import { uploadExternal } from '../upload/external/send-file';
import type { RetryPolicy } from '../upload/retry';
import type { Transport } from '../upload/transport';
import { retiredReason } from './refusals';
import type { UploadTickets } from './upload-tickets';

/** What a protocol needs besides the job: how to reach the service, and what to say once. */
export interface ProtocolContext {
  transport: Transport;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  shareCheckWindowMs?: number;
  retry?: Partial<RetryPolicy>;
  /** The token cannot read files, so links are missing; said once per workspace. */
  onLinksUnavailable: () => void;
  /** Upload addresses asked for while files waited for a slot (external protocol). */
  tickets: UploadTickets;
}

/** Who the attempt is for, so what went wrong can name the file and the workspace. */
interface Sending {
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

/** What every attempt takes, whichever protocol carries it. */
function attemptOptions(hooks: AttemptHooks, ctx: ProtocolContext) {
  return {
    transport: ctx.transport,
    signal: hooks.signal,
    onProgress: (sent: number) => hooks.onProgress(sent),
    beforeBodyComplete: hooks.beforeBodyComplete,
    connectTimeoutMs: ctx.connectTimeoutMs,
    idleTimeoutMs: ctx.idleTimeoutMs,
  };
}

const filesUpload: UploadProtocol = {
  commentOnFirstOnly: true,
  async send(job, hooks, ctx, { item, workspace }) {
    if (asExternalCheckpoint(hooks.resume)?.completing) {
      // Switched away from the external protocol while a share of this file was unanswered:
      // sending it through files.upload now could share it twice.
      return {
        kind: 'unknown',
        reason: {
          class: 'unknown-outcome',
          code: 'protocol_changed',
          message: `A request sharing ${item.name} through Slack's external protocol got no answer, and ${workspace.name} has been switched to files.upload since. It may have been delivered: check the channel before sending it again.`,
        },
      };
    }
    const result: AttemptResult = await uploadOnce(job, attemptOptions(hooks, ctx));
    if (result.kind === 'failed' && result.reason.class === 'retired') {
      return { kind: 'failed', reason: retiredReason(workspace, result.reason) };
    }
    return result;
  },
  async complete() {
    // The queue hands a file over for completing only when its attempt asked it to, and a
    // files.upload attempt never does: each request shares its file.
    throw new Error('files.upload shares each file on its own: there is nothing to complete.');
  },
};

export const external: UploadProtocol = {
  commentOnFirstOnly: false,
  send(job, hooks, ctx, { item }) {
    const ahead = ctx.tickets.take(item.id);
    return uploadExternal(job, {
      ...attemptOptions(hooks, ctx),
      ...(ahead ? { uploadTicket: ahead } : {}),
      stepOneGate: ctx.tickets.gate(item.shareId),
      ...(hooks.resume !== undefined ? { resume: hooks.resume } : {}),
      checkpoint: hooks.checkpoint,
      onLinksUnavailable: ctx.onLinksUnavailable,
      ...(ctx.shareCheckWindowMs !== undefined
        ? { shareCheckWindowMs: ctx.shareCheckWindowMs }
        : {}),
      ...(hooks.awaitShare ? { awaitShare: hooks.awaitShare } : {}),
      ...(ctx.retry ? { retry: ctx.retry } : {}),
    });
  },
  complete(jobs, hooks, ctx) {
    const uploaded = hooks.resumes.map(asExternalCheckpoint);
    if (uploaded.some((cp) => cp === undefined)) {
      throw new Error('A file of the share has no upload to complete.');
    }
    return completeExternalShare(jobs, uploaded as ExternalCheckpoint[], {
      transport: ctx.transport,
      signal: hooks.signal,
      beforeBodyComplete: hooks.beforeBodyComplete,
      saveAll: hooks.checkpoint,
      withComment: hooks.withComment,
      onLinksUnavailable: ctx.onLinksUnavailable,
      ...(ctx.connectTimeoutMs !== undefined ? { connectTimeoutMs: ctx.connectTimeoutMs } : {}),
      ...(ctx.idleTimeoutMs !== undefined ? { idleTimeoutMs: ctx.idleTimeoutMs } : {}),
      ...(ctx.shareCheckWindowMs !== undefined
        ? { shareCheckWindowMs: ctx.shareCheckWindowMs }
        : {}),
      ...(ctx.retry ? { retry: ctx.retry } : {}),
    });
  },
};

const PROTOCOLS: Record<Protocol, UploadProtocol> = {
  'files.upload': filesUpload,
  external,
};

export function protocolOf(workspace: { protocol?: Protocol }): UploadProtocol {
  return PROTOCOLS[workspace.protocol ?? 'files.upload'];
}
