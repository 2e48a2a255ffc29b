// The least a client can do for a share of several files through Slack's external protocol,
// as a yardstick for what the bench's service, proxy and machine add to the round-trip floor:
// Node's built-in https only (nothing else to load), every files.getUploadURLExternal at once
// from its first line, every file's bytes at once as their addresses come, one
// files.completeUploadExternal, then files.info for every file at once
// (https://docs.slack.dev/reference/methods/files.getUploadURLExternal: "1. Call
// files.getUploadURLExternal … 2. Upload a file by making a POST request to the upload URL …
// 3. Call files.completeUploadExternal"). No retries, no checks, no progress: not a client
// anyone should use, only the floor's steps run on this machine.
//
//   SLACK_TOKEN=… [MINIMAL_UPLOAD_ORIGIN=https://…] node bench/clients/minimal-share.mjs BASE_URL CHANNEL COMMENT FILE…
//
// Prints one JSON line per file with its permalink, as Trayshare's --json does; exit 0 if all went.
import { readFileSync, statSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { basename } from 'node:path';
import { createSecureContext } from 'node:tls';

const [baseUrl, channel, comment, ...files] = process.argv.slice(2);
const token = process.env.SLACK_TOKEN;
const api = `${baseUrl?.replace(/\/$/, '')}/api/`;
// One kept connection per file: the step-1 requests open them, the byte uploads reuse them. One
// TLS context for all of them (the default trust, made once), not one built per connection.
const agent = new Agent({ keepAlive: true, maxSockets: 10, secureContext: createSecureContext() });

function post(url, body, headers) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': body.length } },
      (res) => {
        const parts = [];
        res.on('data', (d) => parts.push(d));
        res.on('end', () => resolve(Buffer.concat(parts).toString()));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// Knowing the upload host (MINIMAL_UPLOAD_ORIGIN, as a client that has shared before knows
// Slack's files.slack.com), its connections open at once too: one bodiless request each, whose
// answer (a 404) leaves a kept connection for a byte upload.
const uploadOrigin = process.env.MINIMAL_UPLOAD_ORIGIN;
if (uploadOrigin) {
  for (const _ of files) {
    const warm = request(`${uploadOrigin}/`, { method: 'GET', agent }, (res) => res.resume());
    warm.on('error', () => {});
    warm.end();
  }
}

const form = (fields) =>
  post(`${api}${fields.method}`, Buffer.from(new URLSearchParams(fields.args).toString()), {
    authorization: `Bearer ${token}`,
    'content-type': 'application/x-www-form-urlencoded',
  }).then(JSON.parse);

try {
  const sent = await Promise.all(
    files.map(async (file) => {
      const got = await form({
        method: 'files.getUploadURLExternal',
        args: { filename: basename(file), length: String(statSync(file).size) },
      });
      const bytes = readFileSync(file);
      await post(got.upload_url, bytes, { 'content-type': 'application/octet-stream' });
      return got.file_id;
    }),
  );
  await form({
    method: 'files.completeUploadExternal',
    args: {
      files: JSON.stringify(sent.map((id, i) => ({ id, title: basename(files[i]) }))),
      channel_id: channel,
      initial_comment: comment,
    },
  });
  const infos = await Promise.all(
    sent.map((id) => form({ method: 'files.info', args: { file: id } })),
  );
  for (const [i, file] of files.entries()) {
    const permalink = infos[i]?.file?.permalink ?? null;
    process.stdout.write(
      `${JSON.stringify({ file, ok: permalink !== null, id: sent[i], permalink })}\n`,
    );
  }
  agent.destroy();
} catch (error) {
  process.stderr.write(`${error}\n`);
  process.exitCode = 1;
}
