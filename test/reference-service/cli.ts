// `npm run service -- --port N --data DIR --config FILE`: the reference service as a process.
// The first stdout line is exactly `listening http://127.0.0.1:PORT` (scripts wait for it);
// request notes go to stderr and never hold a token.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { cliDefaultConfig, resolveConfig } from './config';
import { startReferenceService } from './server';

function portNumber(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) {
    throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  }
  return port;
}

async function loadConfig(file: string | undefined) {
  if (!file) return cliDefaultConfig;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read config file ${file}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`config file ${file} is not JSON: ${(err as Error).message}`);
  }
  return resolveConfig(json, cliDefaultConfig);
}

async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name('trayshare-reference-service')
    .description(
      'Local Slack-style service implementing files.upload and the external upload protocol',
    )
    .option('--port <n>', 'port on 127.0.0.1; 0 picks a free one', portNumber, 0)
    .option('--data <dir>', 'folder for uploaded bytes (default: a new temporary folder)')
    .option(
      '--config <file>',
      'JSON: {"tokens": {...}, "channels": [...], "maxFileBytes": n, "uploadsPerMinute": n, "uploadBurst": n, "uploadUrlTtlMs": n, "listsPerMinute": n, "users": [...]}',
    )
    .option('--quiet', 'no request notes on stderr')
    .parse(argv);
  const opts = program.opts<{ port: number; data?: string; config?: string; quiet?: boolean }>();

  const config = await loadConfig(opts.config);
  const dataDir = opts.data
    ? resolve(opts.data)
    : await mkdtemp(join(tmpdir(), 'trayshare-service-'));
  const service = await startReferenceService({
    dataDir,
    port: opts.port,
    baseConfig: config,
    log: opts.quiet ? undefined : (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`listening ${service.url}\n`);
  if (!opts.quiet) process.stderr.write(`data in ${dataDir}\n`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    if (!opts.quiet) process.stderr.write(`${signal}: closing\n`);
    service.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`error while closing: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main(process.argv).catch((err: unknown) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(2);
});
