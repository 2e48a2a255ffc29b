// One upload = one files.upload request: refused before any byte when it cannot be right,
// otherwise streamed from disk and classified. The engine owns the body, so it alone knows
// whether the service could have received all of it: that decides "retry" vs "may have been
// delivered" when no answer comes.
import { apiUrl } from '../../portable/credentials';
import {
  type AttemptOptions,
  type AttemptResult,
  cancelledTooLate,
  checkedAttempt,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  type RetryOptions,
  refused,
  retryTransient,
  type UploadJob,
} from './attempt';
import { classifyResponse, classifyTransportError } from './classify';
import {
  assertUnchanged,
  ChunkRing,
  FileProblem,
  type OpenedFile,
  openForUpload,
  readFileChunks,
} from './file-source';
import { layoutMultipart, multipartBody } from './multipart';
import { type ProgressMeter, progressMeter } from './progress-meter';
import { TransportError } from './transport';

export function uploadOnce(job: UploadJob, opts: AttemptOptions): Promise<AttemptResult> {
  return checkedAttempt(job, opts.signal, (channels) => attempt(job, opts, channels));
}

async function attempt(
  job: UploadJob,
  opts: AttemptOptions,
  channels: string[],
): Promise<AttemptResult> {
  const name = job.file.name.trim() === '' ? 'file' : job.file.name;

  let opened: OpenedFile;
  try {
    opened = await openForUpload({ ...job.file, name }, { blocking: opts.blockingReads === true });
  } catch (error) {
    if (error instanceof FileProblem) return refused(error.code, error.message);
    throw error;
  }

  const url = apiUrl(job.baseUrl, 'files.upload');
  let bodyComplete = false;
  let meter: ProgressMeter | undefined;
  try {
    const fields: [string, string][] = [['channels', channels.join(',')]];
    if (job.comment && job.comment.trim() !== '') fields.push(['initial_comment', job.comment]);
    if (job.threadTs) fields.push(['thread_ts', job.threadTs]);
    // Also as a text part: it is plain UTF-8 there, whatever the server makes of the header's name.
    fields.push(['filename', name]);
    const layout = layoutMultipart({ fields, file: { name, size: opened.size } });
    meter = progressMeter(opened.size, opts.onProgress, layout.head.length);
    const ring = new ChunkRing();
    const body = multipartBody(
      layout,
      opened.size,
      readFileChunks(opened, name, ring, {
        blocking: opts.blockingReads === true,
      }),
      {
        beforeTail: async () => {
          // Last chance to stop a request whose content is not the file that was queued.
          await assertUnchanged(opened, name, { blocking: opts.blockingReads === true });
          await opts.beforeBodyComplete?.();
          bodyComplete = true;
        },
      },
    );
    const response = await opts.transport.request({
      url,
      method: 'POST',
      headers: {
        authorization: `Bearer ${job.token.trim()}`,
        'content-type': layout.contentType,
        accept: 'application/json',
      },
      body,
      onBodyWritten: (bytes, chunk) => {
        meter?.accepted(bytes);
        ring.release(chunk);
      },
      contentLength: layout.contentLength,
      ...(opts.signal ? { signal: opts.signal } : {}),
      connectTimeoutMs: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      idleTimeoutMs: opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    });
    return classifyResponse(response, { channels, url, bodyComplete });
  } catch (error) {
    if (error instanceof FileProblem) return refused(error.code, error.message);
    if (opts.signal?.aborted || (error instanceof TransportError && error.code === 'aborted')) {
      return bodyComplete ? cancelledTooLate() : { kind: 'cancelled' };
    }
    if (error instanceof TransportError) {
      return classifyTransportError(error, { channels, url, bodyComplete });
    }
    throw error;
  } finally {
    meter?.stop();
    await opened.handle.close().catch(() => undefined);
  }
}

export async function uploadWithRetries(
  job: UploadJob,
  opts: AttemptOptions & RetryOptions,
): Promise<AttemptResult> {
  return retryTransient(() => uploadOnce(job, opts), opts);
}
