// `trayshare login --slack --no-browser` as a person runs it: the CLI prints the consent link,
// and (unless the person is away) test/reference-service/consent-client.ts plays the person at the
// browser: it opens the link, clicks Allow or Deny, and follows the redirect to the CLI's
// loopback listener.
import { spawn } from 'node:child_process';
import { type ConsentChoice, consent } from '../reference-service/consent-client';
import { DEFAULT_CLIENT_ID } from '../reference-service/oauth-config';
import { CLI, type CliRun } from './run-cli';

export interface LoginRun extends CliRun {
  argv: string[];
  /** The consent link the CLI printed, if it printed one. */
  link?: string;
}

export function loginWith(opts: {
  baseUrl: string;
  /** The --port value: one port, or several separated by commas. */
  ports: string;
  env: NodeJS.ProcessEnv;
  args: string[];
  choice: ConsentChoice | 'away';
  /** Called with the consent link once printed (before the person acts). */
  onLink?: (link: string) => void;
  /**
   * Passes --yes (default), so the CLI, which has no terminal here, keeps the sign-in without
   * asking who signed in (slack-login-confirm.test.ts asks on a terminal).
   */
  yes?: boolean;
}): Promise<LoginRun> {
  const argv = [
    CLI,
    'login',
    '--slack',
    '--no-browser',
    '--client-id',
    DEFAULT_CLIENT_ID,
    '--base-url',
    opts.baseUrl,
    '--port',
    opts.ports,
    ...(opts.yes === false ? [] : ['--yes']),
    ...opts.args,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      env: { ...process.env, TRAYSHARE_TOKEN: '', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let link: string | undefined;
    child.stdout.on('data', (d) => {
      stdout += d;
      const found = /^(http\S+\/oauth\/v2\/authorize\S+)$/m.exec(stdout)?.[1];
      if (found && !link) {
        link = found;
        opts.onLink?.(found);
        if (opts.choice !== 'away') void consent(found, opts.choice);
      }
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, argv, ...(link ? { link } : {}) });
    });
  });
}
