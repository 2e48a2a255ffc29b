// A share of several files as the Slack SDK makes it: one `filesUploadV2` call with
// `file_uploads` (@slack/web-api v7), which asks for every upload URL at once, posts every file
// at once, then completes them all in one files.completeUploadExternal: one message
// (node-slack-sdk packages/web-api/src/WebClient.ts filesUploadV2, file-upload.ts
// getMultipleFileUploadJobs). Plain JavaScript run by `node` so the figures are the SDK's own.
//
//   SLACK_TOKEN=… node bench/clients/slack-sdk-share.mjs BASE_URL CHANNEL COMMENT FILE…
//
// Prints one JSON line per file: {"file", "ok", "id", "error"}; exit 0 only if all were ok.
// With SDK_SHARE_LINKS=1 it then asks files.info for every file at once (filesUploadV2's answer
// has no permalinks) and each line also carries "permalink": when the person has the links.
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { LogLevel, WebClient } from '@slack/web-api';

const [baseUrl, channel, comment, ...files] = process.argv.slice(2);
const token = process.env.SLACK_TOKEN;
if (!baseUrl || !channel || comment === undefined || files.length === 0 || !token) {
  process.stderr.write('usage: SLACK_TOKEN=… slack-sdk-share.mjs BASE_URL CHANNEL COMMENT FILE…\n');
  process.exit(2);
}

const client = new WebClient(token, {
  slackApiUrl: `${baseUrl.replace(/\/$/, '')}/api/`,
  retryConfig: { retries: 0 },
  logLevel: LogLevel.ERROR,
});

try {
  const res = await client.filesUploadV2({
    channel_id: channel,
    initial_comment: comment,
    file_uploads: files.map((file) => ({ file: createReadStream(file), filename: basename(file) })),
  });
  const shared = res.files.flatMap((f) => f.files ?? []);
  const links =
    process.env.SDK_SHARE_LINKS === '1'
      ? await Promise.all(
          shared.map(
            async (f) => (await client.files.info({ file: f.id })).file?.permalink ?? null,
          ),
        )
      : [];
  for (const [i, file] of files.entries()) {
    const id = shared[i]?.id ?? null;
    const permalink = links[i] !== undefined ? { permalink: links[i] } : {};
    process.stdout.write(
      `${JSON.stringify({ file, ok: id !== null, id, error: null, ...permalink })}\n`,
    );
  }
  process.exitCode = shared.length === files.length ? 0 : 1;
} catch (error) {
  const code = error?.data?.error ?? error?.code ?? String(error?.message ?? error);
  for (const file of files) {
    process.stdout.write(`${JSON.stringify({ file, ok: false, id: null, error: code })}\n`);
  }
  process.exitCode = 1;
}
