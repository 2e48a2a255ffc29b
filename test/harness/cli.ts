// npm run harness -- --port N [--renderer-dir out/renderer] [--throttle BYTES_PER_SECOND]
// Serves the renderer in a plain browser, bound to the real core over a local transport.
// The first stdout line is exactly "harness http://127.0.0.1:PORT" (scripts wait for it).
import { parseArgs } from 'node:util';
import { DEFAULT_CLIENT_ID } from '../reference-service/oauth-config';
import { startHarness } from './server';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'renderer-dir': { type: 'string' },
    throttle: { type: 'string' },
    'slack-client-id': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  process.stdout.write(
    [
      'Usage: npm run harness -- [--port N] [--renderer-dir DIR] [--throttle BYTES_PER_SECOND]',
      '  --port N            port on 127.0.0.1; 0 (default) picks a free one',
      '  --renderer-dir DIR  serve an existing build (e.g. out/renderer) instead of building one',
      '  --throttle N        slow uploads to N bytes a second, to watch progress',
      '  --slack-client-id ID  the renderer as a release build with this default Slack client',
      "                      ID (default: the reference service's app, so Sign in with Slack",
      '                      works); "" for a build without one',
      '',
    ].join('\n'),
  );
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`harness: --port must be a number from 0 to 65535 (got "${values.port}")\n`);
  process.exit(2);
}
const throttle = values.throttle === undefined ? null : Number(values.throttle);
if (throttle !== null && !(throttle > 0)) {
  process.stderr.write('harness: --throttle must be a positive number of bytes a second\n');
  process.exit(2);
}

const harness = await startHarness({
  port,
  rendererDir: values['renderer-dir'],
  throttleBytesPerSecond: throttle,
  slackClientId: values['slack-client-id'] ?? DEFAULT_CLIENT_ID,
});
process.stdout.write(`harness ${harness.url}\n`);
process.stdout.write(
  `reference service ${harness.reference.url} (uploads: ${harness.reference.url}/_test/uploads)\n`,
);
process.stdout.write(
  `renderer ${harness.renderer.how === 'reused' ? 'reused from' : `${harness.renderer.how} in`} ${harness.renderer.dir}\n`,
);
process.stdout.write('tokens are kept in memory for this run only; press Ctrl+C to stop\n');
process.stdout.write(
  'Sign in with Slack shows the consent page as a link at the bottom of the window: open it, then Allow\n',
);

let closing = false;
const stop = async () => {
  if (closing) return;
  closing = true;
  await harness.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
