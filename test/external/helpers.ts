// Shared by the external protocol's end-to-end tests: the real app service (settings, keychain,
// durable queue, engine) against the reference service on 127.0.0.1, and files whose contents
// no other test has, so what the service recorded can be told apart by sha256.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppService } from '../../main/core/api';
import { createAppService } from '../../main/core/app-service';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import type { Transport } from '../../main/core/upload/transport';
import type { RecordedUpload } from '../reference-service/server';

export const TOKEN = 'xoxb-test-token';
export const CHANNELS = ['C0GENERAL', 'C0DESIGN', 'C0RANDOM'];

export interface TestFile {
  path: string;
  name: string;
  size: number;
  sha256: string;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export async function makeFile(dir: string, name: string, size = 48 * 1024): Promise<TestFile> {
  await mkdir(dir, { recursive: true });
  const data = randomBytes(size);
  const path = join(dir, name);
  await writeFile(path, data);
  return { path, name, size, sha256: sha256(data) };
}

/** How many times the service shared each file's contents. */
export function sharedCounts(uploads: readonly RecordedUpload[], files: readonly TestFile[]) {
  return files.map((f) => uploads.filter((u) => u.sha256 === f.sha256).length);
}

/** Lines of the reference service's log that name this request ("POST /api/<method>"). */
export function calls(log: readonly string[], method: string): number {
  return log.filter((line) => line === `POST /api/${method}`).length;
}

export interface AppOptions {
  dataDir: string;
  idleTimeoutMs?: number;
  stateName?: string;
  transport?: Transport;
  /** Watch the settings file, as the app does, for another process's changes. */
  watchSettings?: boolean;
  /** After an unclear completion, how long files.info is asked (default here 300 ms). */
  shareCheckWindowMs?: number;
}

/**
 * The app's core as the Electron shell builds it. The token comes from the override (as
 * TRAYSHARE_TOKEN does for the CLI); the keychain is the real one under its own service name,
 * which these tests never write to.
 */
export function openApp(opts: AppOptions): Promise<AppService> {
  return createAppService({
    dataDir: opts.dataDir,
    ...(opts.stateName ? { stateName: opts.stateName } : {}),
    secrets: createKeychainStore({ service: `Trayshare-test-external-${randomUUID()}` }),
    transport: opts.transport ?? createNodeTransport(),
    tokenOverride: TOKEN,
    retry: { maxAttempts: 5, baseDelayMs: 10, maxDelayMs: 50 },
    connectTimeoutMs: 5000,
    idleTimeoutMs: opts.idleTimeoutMs ?? 10_000,
    // The app's 30 s window scaled down 100 times, so an outcome left unknown takes 0.3 s.
    shareCheckWindowMs: opts.shareCheckWindowMs ?? 300,
    ...(opts.watchSettings ? { watchSettings: true } : {}),
  });
}
