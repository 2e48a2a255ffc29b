// files.upload as an UploadProtocol: one request per file, one message each.
import type { FailureReason, Workspace } from '../model';
import type { AttemptResult } from '../upload/attempt';
import { uploadOnce } from '../upload/engine';
import { asExternalCheckpoint } from '../upload/external/checkpoint';
import type { UploadProtocol } from './upload-protocol';

export const filesUpload: UploadProtocol = {
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
    const result: AttemptResult = await uploadOnce(job, {
      transport: ctx.transport,
      signal: hooks.signal,
      onProgress: (sent: number) => hooks.onProgress(sent),
      beforeBodyComplete: hooks.beforeBodyComplete,
      connectTimeoutMs: ctx.connectTimeoutMs,
      idleTimeoutMs: ctx.idleTimeoutMs,
    });
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

/**
 * files.upload is gone from this service. `class: 'retired'` with the service's own code is the
 * marker the UI acts on: it offers to switch the workspace to the external protocol
 * (updateWorkspace(id, { protocol: 'external' })) and to send the item again (retryItem).
 */
function retiredReason(workspace: Workspace, reason: FailureReason): FailureReason {
  return {
    ...reason,
    message: `${workspace.name} no longer offers files.upload (the service answered ${reason.code}). Switching the workspace to Slack's external upload protocol fixes this: change its protocol to "external" in Settings, then send the file again.`,
  };
}
