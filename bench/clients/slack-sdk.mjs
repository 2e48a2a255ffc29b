// The Slack SDK as a person would use it from a script: @slack/web-api v7's WebClient pointed
// at a local base URL, one upload after another. Plain JavaScript run by `node` (not tsx) so
// its peak RSS is the SDK's own.
//
//   SLACK_TOKEN=… node bench/clients/slack-sdk.mjs <upload|upload-v2> BASE_URL CHANNEL FILE…
//
// upload:    files.upload with a file stream (the SDK streams it through form-data).
// upload-v2: filesUploadV2 with a file stream (the SDK reads the whole file into a Buffer first).
// Prints one JSON line per file: {"file", "ok", "id", "error"}; exit 0 only if all were ok.
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { LogLevel, WebClient } from '@slack/web-api';

const [mode, baseUrl, channel, ...files] = process.argv.slice(2);
const token = process.env.SLACK_TOKEN;
if (!['upload', 'upload-v2'].includes(mode ?? '') || !baseUrl || !channel || files.length === 0) {
  process.stderr.write('usage: slack-sdk.mjs <upload|upload-v2> BASE_URL CHANNEL FILE…\n');
  process.exit(2);
}
if (!token) {
  process.stderr.write('SLACK_TOKEN is not set\n');
  process.exit(2);
}

const client = new WebClient(token, {
  slackApiUrl: `${baseUrl.replace(/\/$/, '')}/api/`,
  // Failures must show as failures, not as minutes of backoff inside a timed run.
  retryConfig: { retries: 0 },
  // files.upload is deprecated in Slack; the warning on every call is not what is measured.
  logLevel: LogLevel.ERROR,
});

let failed = 0;
for (const file of files) {
  const name = basename(file);
  try {
    let id;
    if (mode === 'upload') {
      const res = await client.files.upload({
        channels: channel,
        file: createReadStream(file),
        filename: name,
      });
      id = res.file?.id;
    } else {
      const res = await client.filesUploadV2({
        channel_id: channel,
        file: createReadStream(file),
        filename: name,
      });
      id = res.files?.[0]?.files?.[0]?.id;
    }
    process.stdout.write(`${JSON.stringify({ file, ok: true, id: id ?? null, error: null })}\n`);
  } catch (error) {
    failed++;
    const code = error?.data?.error ?? error?.code ?? String(error?.message ?? error);
    process.stdout.write(`${JSON.stringify({ file, ok: false, id: null, error: code })}\n`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
