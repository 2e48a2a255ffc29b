// Slack's external upload protocol as an UploadProtocol: each file's bytes go on their own,
// then the files of a share are completed together as one message.
import { asExternalCheckpoint, type ExternalCheckpoint } from '../upload/external/checkpoint';
import { completeExternalShare } from '../upload/external/complete';
import { uploadExternal } from '../upload/external/send-file';
import type { UploadProtocol } from './upload-protocol';

export const external: UploadProtocol = {
  commentOnFirstOnly: false,
  send(job, hooks, ctx) {
    return uploadExternal(job, {
      transport: ctx.transport,
      signal: hooks.signal,
      onProgress: (sent: number) => hooks.onProgress(sent),
      beforeBodyComplete: hooks.beforeBodyComplete,
      connectTimeoutMs: ctx.connectTimeoutMs,
      idleTimeoutMs: ctx.idleTimeoutMs,
      ...(hooks.resume !== undefined ? { resume: hooks.resume } : {}),
      checkpoint: hooks.checkpoint,
      onLinksUnavailable: ctx.onLinksUnavailable,
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
      ...(ctx.retry ? { retry: ctx.retry } : {}),
    });
  },
};
