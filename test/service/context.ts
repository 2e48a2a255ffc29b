// What every request handler of the reference service shares.
import type { ServiceConfig } from './config';
import type { ExternalUploads } from './external-uploads';
import type { FaultBook } from './faults';
import type { TokenBucketLimiter } from './rate-limiter';

export interface RecordedUpload {
  id: string;
  name: string;
  size: number;
  sha256: string;
  channels: string[];
  initial_comment: string | null;
  user: string;
}

export interface ServiceContext {
  readonly config: ServiceConfig;
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** Shared files, named by file ID. */
  readonly filesDir: string;
  /** Bytes still arriving, and external uploads not completed yet. */
  readonly incomingDir: string;
  readonly now: () => number;
  readonly faults: FaultBook;
  readonly limiter: TokenBucketLimiter;
  readonly external: ExternalUploads;
  record(upload: RecordedUpload): void;
  /** A timer the service cancels when it closes. */
  later(ms: number, fn: () => void): void;
  log(line: string): void;
}
