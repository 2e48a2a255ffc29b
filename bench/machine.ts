// What the figures were measured on: they mean little without it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Machine } from './results';

function curlVersion(): string {
  try {
    return execFileSync('curl', ['--version'], { encoding: 'utf8' })
      .split('\n')[0]!
      .split(' ')
      .slice(0, 2)
      .join(' ');
  } catch {
    return 'curl: not found';
  }
}

function sdkVersion(repoRoot: string): string {
  try {
    const pkg = JSON.parse(
      readFileSync(join(repoRoot, 'node_modules/@slack/web-api/package.json'), 'utf8'),
    ) as { version?: string };
    return `@slack/web-api ${pkg.version ?? '?'}`;
  } catch {
    return '@slack/web-api: not installed';
  }
}

export function describeMachine(repoRoot: string): Machine {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryBytes: os.totalmem(),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    curl: curlVersion(),
    slackSdk: sdkVersion(repoRoot),
  };
}
