// What an external-protocol attempt leaves in the queue's journal between attempts: the file's
// bytes are on the service, and whether a step 3 for them may have gone out. Plain data, so the
// queue, the protocol and the resume rules can all read it without importing each other.

/** Where an attempt got to: the file's bytes are on the service, waiting for step 3. */
export interface ExternalCheckpoint {
  protocol: 'external';
  /** The service the file_id belongs to: a checkpoint for another base URL is not used. */
  baseUrl: string;
  fileId: string;
  /** When the service confirmed the bytes (epoch ms); it discards uploads not completed in time. */
  uploadedAt: number;
  /** A step 3 for this file_id may have reached the service: its outcome is not known. */
  completing: boolean;
  /**
   * The step 3 was one completion of several files (one message). Asking again for this file
   * alone could share it on its own, so a group cut off while completing stays unknown.
   */
  group?: boolean;
}

/** Slack does not publish it; the reference service uses 10 minutes. Only an optimisation. */
export const DEFAULT_UPLOAD_TTL_MS = 10 * 60_000;

export function asExternalCheckpoint(value: unknown): ExternalCheckpoint | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Partial<ExternalCheckpoint>;
  if (
    v.protocol !== 'external' ||
    typeof v.baseUrl !== 'string' ||
    typeof v.fileId !== 'string' ||
    v.fileId === '' ||
    typeof v.uploadedAt !== 'number' ||
    typeof v.completing !== 'boolean'
  ) {
    return undefined;
  }
  return {
    protocol: 'external',
    baseUrl: v.baseUrl,
    fileId: v.fileId,
    uploadedAt: v.uploadedAt,
    completing: v.completing,
    ...(v.group === true ? { group: true } : {}),
  };
}
