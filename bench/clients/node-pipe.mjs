// A reference point, not a product: the least a Node client can do to send a file as
// multipart/form-data (fs.createReadStream piped into http.request, 256 KiB reads like the
// engine's chunks, exact Content-Length). Trayshare's CLI against this shows what its own
// layers cost; this against curl shows what Node itself costs.
//
//   SLACK_TOKEN=… node bench/clients/node-pipe.mjs BASE_URL CHANNEL FILE…
import { randomBytes } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import { basename } from 'node:path';

const [baseUrl, channel, ...files] = process.argv.slice(2);
const token = process.env.SLACK_TOKEN;
if (!baseUrl || !channel || files.length === 0 || !token) {
  process.stderr.write('usage: SLACK_TOKEN=… node-pipe.mjs BASE_URL CHANNEL FILE…\n');
  process.exit(2);
}

function send(file) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="channels"\r\n\r\n${channel}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${basename(file)}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = statSync(file).size;
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}/api/files.upload`, {
      method: 'POST',
      agent: false,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (error) {
          reject(error);
        }
      });
    });
    req.write(head);
    const stream = createReadStream(file, { highWaterMark: 256 * 1024 });
    stream.on('error', reject);
    stream.on('end', () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}

let failed = 0;
for (const file of files) {
  try {
    const answer = await send(file);
    if (answer.ok !== true) failed++;
    process.stdout.write(
      `${JSON.stringify({ file, ok: answer.ok === true, id: answer.file?.id ?? null, error: answer.error ?? null })}\n`,
    );
  } catch (error) {
    failed++;
    process.stdout.write(
      `${JSON.stringify({ file, ok: false, id: null, error: String(error) })}\n`,
    );
  }
}
process.exitCode = failed === 0 ? 0 : 1;
