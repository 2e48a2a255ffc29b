// What every request handler of the reference service shares.
import type { Conversation, ServiceConfig } from './config';
import type { ExternalUploads } from './external-uploads';
import type { FaultBook } from './faults';
import type { OAuthGrants } from './oauth-grants';
import type { TokenBucketLimiter } from './rate-limiter';
import type { SharedFiles } from './shared-files';

export interface RecordedUpload {
  id: string;
  name: string;
  size: number;
  sha256: string;
  channels: string[];
  initial_comment: string | null;
  user: string;
  /** Present only for a reply in a thread: the parent message's ts. */
  thread_ts?: string;
}

/** One message a share made: the files it carries, its one comment, and where it went. */
export interface RecordedMessage {
  ts: string;
  channels: string[];
  files: string[];
  initial_comment: string | null;
  thread_ts: string | null;
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
  /** conversations.list has its own tier, apart from uploads. */
  readonly listLimiter: TokenBucketLimiter;
  /** users.list: its own bucket, at the same tier as conversations.list. */
  readonly usersLimiter: TokenBucketLimiter;
  readonly conversations: Conversation[];
  readonly external: ExternalUploads;
  /** Every file by ID and where it was shared: what files.info answers from. */
  readonly files: SharedFiles;
  /** Sign in with Slack: consent requests, codes and rotating tokens handed out. */
  readonly oauth: OAuthGrants;
  /** Configured tokens revoked with auth.revoke. */
  readonly revokedTokens: Set<string>;
  record(upload: RecordedUpload): void;
  /** Posts one message sharing `files` and returns its ts (unique, increasing). */
  postMessage(message: Omit<RecordedMessage, 'ts'>): string;
  /** A timer the service cancels when it closes. */
  later(ms: number, fn: () => void): void;
  log(line: string): void;
}
