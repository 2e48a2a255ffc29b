// The clients being compared, as commands a person would type, and how to tell from their
// output that every file really arrived (a run that failed is never counted as a timing).
import { join } from 'node:path';
import type { Command, Measured } from './measure';

export type ToolId =
  | 'trayshare'
  | 'trayshare-external'
  | 'curl'
  | 'curl-loop'
  | 'curl-next'
  | 'slack-sdk'
  | 'slack-sdk-v2'
  | 'node-pipe';

export const TOOL_LABELS: Record<ToolId, string> = {
  trayshare: 'trayshare send',
  'trayshare-external': 'trayshare send (external)',
  curl: 'curl -F',
  'curl-loop': 'curl loop (1 process per file)',
  'curl-next': 'curl --next (1 process, keep-alive)',
  'slack-sdk': 'Slack SDK files.upload (stream)',
  'slack-sdk-v2': 'Slack SDK filesUploadV2 (stream)',
  'node-pipe': 'reference: bare Node stream.pipe',
};

export interface ClientSetup {
  repoRoot: string;
  /** The bundled CLI (out/cli/trayshare.js). */
  cliPath: string;
  token: string;
  channel: string;
  /** A 0600 file holding the Authorization header, so the token is not in curl's argv. */
  curlHeaderFile: string;
  /** TRAYSHARE_DATA_DIR for the CLI, so a run never touches the person's own settings. */
  cliDataDir: string;
  /** The CLI's option that selects the external protocol, when it has one. */
  cliExternalArgs?: string[];
}

function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'TMPDIR', 'NODE_OPTIONS']) {
    if (process.env[key] !== undefined) env[key] = process.env[key];
  }
  return env;
}

function curlArgs(setup: ClientSetup, baseUrl: string, file: string): string[] {
  return [
    '-sS',
    '-H',
    `@${setup.curlHeaderFile}`,
    '-F',
    `file=@${file}`,
    '-F',
    `channels=${setup.channel}`,
    '-w',
    '\\n',
    `${baseUrl}/api/files.upload`,
  ];
}

// The loop a person would write; the header comes from a file instead of "$TOKEN" in argv.
const CURL_LOOP = `for f in "$@"; do
  curl -sS -H "@$HDR" -F "file=@$f" -F "channels=$CHANNEL" -w '\\n' "$URL/api/files.upload" || exit 1
done`;

export function command(
  tool: ToolId,
  setup: ClientSetup,
  baseUrl: string,
  files: string[],
): Command {
  switch (tool) {
    case 'trayshare':
    case 'trayshare-external': {
      const extra = tool === 'trayshare-external' ? (setup.cliExternalArgs ?? []) : [];
      return {
        cmd: process.execPath,
        args: [
          setup.cliPath,
          'send',
          '--base-url',
          baseUrl,
          '--channels',
          setup.channel,
          ...extra,
          '--json',
          ...files,
        ],
        env: {
          ...baseEnv(),
          TRAYSHARE_TOKEN: setup.token,
          TRAYSHARE_DATA_DIR: setup.cliDataDir,
        },
      };
    }
    case 'curl':
      if (files.length !== 1) throw new Error('curl -F sends one file per process here');
      return { cmd: 'curl', args: curlArgs(setup, baseUrl, files[0]!), env: baseEnv() };
    case 'curl-loop':
      return {
        cmd: 'bash',
        args: ['-c', CURL_LOOP, 'curl-loop', ...files],
        env: { ...baseEnv(), HDR: setup.curlHeaderFile, CHANNEL: setup.channel, URL: baseUrl },
      };
    case 'curl-next': {
      // --next resets every per-transfer option, so each transfer repeats them.
      const args: string[] = [];
      files.forEach((file, i) => {
        if (i > 0) args.push('--next');
        args.push(...curlArgs(setup, baseUrl, file));
      });
      return { cmd: 'curl', args, env: baseEnv() };
    }
    case 'slack-sdk':
    case 'slack-sdk-v2':
      return {
        cmd: process.execPath,
        args: [
          join(setup.repoRoot, 'bench/clients/slack-sdk.mjs'),
          tool === 'slack-sdk' ? 'upload' : 'upload-v2',
          baseUrl,
          setup.channel,
          ...files,
        ],
        env: { ...baseEnv(), SLACK_TOKEN: setup.token },
      };
    case 'node-pipe':
      return {
        cmd: process.execPath,
        args: [
          join(setup.repoRoot, 'bench/clients/node-pipe.mjs'),
          baseUrl,
          setup.channel,
          ...files,
        ],
        env: { ...baseEnv(), SLACK_TOKEN: setup.token },
      };
  }
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of stdout.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    try {
      out.push(JSON.parse(trimmed) as Record<string, unknown>);
    } catch {
      out.push({ unparsed: trimmed });
    }
  }
  return out;
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? ''
  ).slice(0, 200);
}

/**
 * Why this run does not count, or undefined when the client says every file was delivered.
 * (The target then checks that the bytes arrived.)
 */
export function clientFailure(tool: ToolId, run: Measured, fileCount: number): string | undefined {
  const lines = jsonLines(run.stdout);
  let ok = 0;
  let firstError: string | undefined;
  for (const line of lines) {
    const good =
      tool === 'trayshare' || tool === 'trayshare-external'
        ? line.outcome === 'delivered'
        : line.ok === true;
    if (good) ok++;
    else firstError ??= String(line.error ?? line.unparsed ?? JSON.stringify(line)).slice(0, 200);
  }
  if (ok === fileCount && run.exitCode === 0) return undefined;
  const why = firstError ?? firstLine(run.stderr);
  return `${ok} of ${fileCount} delivered, exit ${run.exitCode ?? 'killed'}${why ? `: ${why}` : ''}`;
}
