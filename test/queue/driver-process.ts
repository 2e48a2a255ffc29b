// A crash driver (group-commit-driver.ts) run as this test's own child, with its config in a file,
// until it exits or dies where the driver placed the crash. node --import tsx rather than npx:
// SIGKILL then hits the process that holds the queue (see crash.test.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_TOKEN } from './helpers';

const repo = fileURLToPath(new URL('../..', import.meta.url));

export interface DriverExit {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

export interface DriverProcesses {
  /** Writes `config` to `<dir>/<name>.json` and runs the driver on it. */
  run(dir: string, config: object, name: string): Promise<DriverExit>;
  /** Any driver still running (a test that failed half-way) is killed. */
  killAll(): void;
}

export function driverProcesses(driver: string): DriverProcesses {
  const children = new Set<ChildProcess>();
  return {
    async run(dir, config, name) {
      const configPath = join(dir, `${name}.json`);
      await writeFile(configPath, JSON.stringify(config));
      const child = spawn(process.execPath, ['--import', 'tsx', driver, configPath], {
        cwd: repo,
        env: { ...process.env, TRAYSHARE_TEST_TOKEN: TEST_TOKEN },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      const { code, signal } = await new Promise<{ code: number | null; signal: string | null }>(
        (resolve) => child.once('exit', (c, s) => resolve({ code: c, signal: s })),
      );
      children.delete(child);
      return { code, signal, stdout, stderr };
    },
    killAll() {
      for (const child of children) child.kill('SIGKILL');
    },
  };
}
