// Runs the built `trayshare` CLI (out/cli/trayshare.js, made by `npm run build`) as a person would.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export const CLI = resolve('out/cli/trayshare.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: {
    env?: NodeJS.ProcessEnv;
    input?: string | Buffer;
    timeoutMs?: number;
    /** The working folder (default: this process's, the checkout). */
    cwd?: string;
    /** Close the command's output at once, as a reader that stops early does (`| head -0`). */
    closeStdout?: boolean;
  } = {},
): Promise<CliRun> {
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} is missing: run \`npm run build:cli\` first (npm test does).`);
  }
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, TRAYSHARE_TOKEN: '', ...options.env },
      ...(options.cwd ? { cwd: options.cwd } : {}),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    if (options.closeStdout) child.stdout.destroy();
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    // A command may stop reading its input early (stdin over the size limit is refused): the
    // rest of the write then fails with EPIPE, which is the command's answer, not the test's.
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    child.stdin.end(options.input ?? '');
  });
}

export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Every file below root (to check that no file holds a token). */
export async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}
