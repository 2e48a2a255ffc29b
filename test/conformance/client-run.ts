// A representative run of the client's code paths against the reference service over real
// HTTP, for the conformance checks to read the requests it made: files.upload (with a comment,
// several channels, a thread), the external protocol (one file, a thread reply, a group of
// several files as one message, a completion whose answer is lost, a token without
// files:read), the protocol probe, auth.test, conversations.list, users.list and auth.revoke.
// Then requests that provoke each refusal the service has, so every code it can answer is seen.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { uploadExternalGroup } from '../../main/cli/external-group';
import { revokeToken } from '../../main/core/auth/oauth-client';
import { listConversations } from '../../main/core/conversations/conversations-list';
import { listUsers } from '../../main/core/conversations/users-list';
import type { UploadJob } from '../../main/core/upload/attempt';
import { authTest } from '../../main/core/upload/auth-test';
import { uploadOnce } from '../../main/core/upload/engine';
import { uploadExternal } from '../../main/core/upload/external/send-file';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { probeProtocol } from '../../main/core/upload/protocol-probe';
import { callApi, multipart, send, upload } from '../reference-service/raw-client';
import type { ReferenceService, ServiceConfig } from '../reference-service/server';

const TOKEN = 'xoxb-test-token';
/** A token with files:write only: no files:read, channels:read… or users:read. */
const WRITE_ONLY = 'xoxp-write-only';
const REVOKED = 'xoxb-revoke-me';

export const RUN_CONFIG: Partial<ServiceConfig> = {
  tokens: {
    [TOKEN]: { user: 'U0TEST', channels: ['C0GENERAL', 'C0DESIGN', 'C0RANDOM', 'D0ALICE'] },
    [WRITE_ONLY]: { user: 'U0TEST', channels: ['C0GENERAL'], scopes: ['files:write'] },
    [REVOKED]: { user: 'U0OTHER', channels: ['C0RANDOM'] },
  },
  // Small enough that a size refusal is cheap to provoke.
  maxFileBytes: 64 * 1024,
};

export async function clientRun(service: ReferenceService, dir: string): Promise<void> {
  const transport = createNodeTransport();
  const files: string[] = [];
  for (const name of ['a.txt', 'b.png', 'c.pdf', 'd.txt']) {
    const path = join(dir, name);
    await writeFile(path, `contents of ${name}\n`);
    files.push(path);
  }
  const job = (path: string, over: Partial<UploadJob> = {}): UploadJob => ({
    baseUrl: service.url,
    token: TOKEN,
    channels: ['C0GENERAL', 'C0DESIGN'],
    comment: 'For review',
    file: { path, name: path.split(/[\\/]/).pop()! },
    ...over,
  });
  const opts = { transport, sleep: async () => {}, shareCheckWindowMs: 300 };
  const must = (what: string, kind: string) => {
    if (kind !== 'delivered') throw new Error(`${what} ended ${kind}`);
  };

  must('files.upload', (await uploadOnce(job(files[0]!), opts)).kind);
  must(
    'files.upload in a thread',
    (await uploadOnce(job(files[1]!, { channels: ['C0GENERAL'], threadTs: '1.000001' }), opts))
      .kind,
  );
  must('external', (await uploadExternal(job(files[0]!), opts)).kind);
  must(
    'external in a thread',
    (await uploadExternal(job(files[1]!, { channels: ['C0DESIGN'], threadTs: '1.000002' }), opts))
      .kind,
  );
  const group = await uploadExternalGroup(
    files.slice(0, 3).map((f) => job(f, { channels: ['C0RANDOM', 'D0ALICE'] })),
    { ...opts, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } },
  );
  for (const r of group) must('a group', r.kind);
  service.injectFault({
    method: 'files.completeUploadExternal',
    fault: { kind: 'reset-after-body' },
  });
  must('a lost completion answer', (await uploadExternal(job(files[3]!), opts)).kind);
  must(
    'a token without files:read',
    (
      await uploadExternal(
        job(files[2]!, { token: WRITE_ONLY, channels: ['C0GENERAL'], comment: '' }),
        opts,
      )
    ).kind,
  );

  await probeProtocol(service.url, TOKEN, transport);
  await authTest(service.url, TOKEN, transport);
  await authTest(service.url, 'xoxb-not-a-token', transport);
  await listConversations(service.url, TOKEN, transport, { pageSize: 3 });
  await listConversations(service.url, WRITE_ONLY, transport);
  await listUsers(service.url, TOKEN, transport, { pageSize: 2 });
  await listUsers(service.url, WRITE_ONLY, transport);
  await revokeToken(service.url, REVOKED, transport);
}

/** Raw requests that meet each refusal of the service, by method. */
export async function provokeRefusals(service: ReferenceService): Promise<void> {
  const url = service.url;
  const api = (method: string, args: Record<string, string>, token: string | null = TOKEN) =>
    callApi(url, method, args, token);
  for (const method of ['auth.test', 'files.info', 'conversations.list', 'users.list']) {
    await api(method, {}, null); // not_authed
    await api(method, {}, 'xoxb-unknown'); // invalid_auth
    await api(method, {}, REVOKED); // token_revoked (revoked by the client run)
  }
  await upload(url, { channels: 'C0GENERAL', file: null }); // no_file_data
  await upload(url, { channels: 'C0NOWHERE' }); // channel_not_found
  await upload(url, { channels: 'C0SECRET' }); // not_in_channel
  await upload(url, { channels: Array.from({ length: 101 }, (_, i) => `C${i}`).join(',') });
  await upload(url, {
    channels: 'C0GENERAL,C0DESIGN',
    extra: [{ name: 'thread_ts', value: '1.000001' }],
  }); // invalid_arguments
  await upload(url, {
    channels: 'C0GENERAL',
    file: { name: 'big.bin', content: Buffer.alloc(65 * 1024) },
  }); // file_upload_size_restricted
  await send(`${url}/api/files.upload`, {
    body: Buffer.from('not a form'),
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'multipart/form-data' },
  }); // invalid_form_data

  await api('files.getUploadURLExternal', { filename: 'x.txt', length: '0' }); // missing_argument
  await api('files.getUploadURLExternal', { filename: 'x.txt', length: '999999' });
  await api('files.completeUploadExternal', { files: 'not json' }); // invalid_arguments
  await api('files.completeUploadExternal', { files: '[{"id":"F0NONE"}]' }); // file_not_found
  const ticket = await api('files.getUploadURLExternal', { filename: 'y.txt', length: '1' });
  const fileId = ticket.kind === 'response' ? String(JSON.parse(ticket.text).file_id) : '';
  const files = JSON.stringify([{ id: fileId }]);
  await api('files.completeUploadExternal', { files, channel_id: 'U0ALICE' }); // invalid_arguments
  await api('files.completeUploadExternal', {
    files,
    channels: Array.from({ length: 101 }, (_, i) => `C${i}`).join(','),
  }); // channels_limit_exceeded
  await api('files.completeUploadExternal', { files, channels: 'C0NOWHERE' }); // file_not_found first
  await api('files.info', {}); // invalid_arguments
  await api('files.info', { file: 'F0NONE' }); // file_not_found
  await api('files.info', { file: fileId }, WRITE_ONLY); // missing_scope

  await api('conversations.list', { types: 'nonsense' }); // invalid_types
  await api('conversations.list', { limit: 'many' }); // invalid_limit
  await api('conversations.list', { cursor: 'bogus' }); // invalid_cursor
  await api('conversations.list', {}, WRITE_ONLY); // missing_scope
  await api('users.list', { limit: 'many' }); // invalid_limit
  await api('users.list', { cursor: 'bogus' }); // invalid_cursor
  await send(`${url}/api/conversations.list`, {
    body: Buffer.from('{not json'),
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
  }); // invalid_json
  const { body, contentType } = multipart([
    { name: 'file', filename: 'x', content: Buffer.from('') },
  ]);
  await send(`${url}/api/files.getUploadURLExternal`, {
    body,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': contentType },
  }); // invalid_arguments: no filename or length
}
