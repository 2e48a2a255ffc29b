// A token the service refuses (issue 27, items 12 and 13), over real HTTP: `send --json` prints a
// line for every file, delivered ones too, and exits 4 ("refused by the service"); the message
// names `trayshare login`, not the app's Settings; `trayshare queue` shows the files waiting for
// a token and does not try them again; `queue --run` does, once the token works.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '../reference-service/server';
import { closeAcme, loggedInAcme } from './acme-workspace';
import { jsonLines, runCli } from './run-cli';

let service: ReferenceService;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ service, dir, env } = await loggedInAcme('trayshare-refused-'));
});

afterAll(() => closeAcme({ service, dir, env }));

async function files(names: string[]): Promise<string[]> {
  const paths = names.map((n) => join(dir, n));
  for (const p of paths) await writeFile(p, `${p}\n`);
  return paths;
}

describe('a refused token', () => {
  it('send --json: a line per file, delivered ones too; exit 4; the way out is `trayshare login`', async () => {
    const paths = await files(['one.txt', 'two.txt', 'three.txt']);
    // The first upload to arrive goes through; then the service refuses the token (revoked).
    service.clearFaults();
    service.injectFault({ fault: { kind: 'slow', delayMs: 0 }, times: 1 });
    service.injectFault({ fault: { kind: 'error', error: 'token_revoked' }, times: 20 });
    const before = service.uploads().length;
    const send = await runCli(
      ['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', '--json', ...paths],
      { env },
    );
    const lines = jsonLines(send.stdout);
    expect(lines.map((l) => l.file).sort()).toEqual([...paths].sort());
    expect(lines.map((l) => l.outcome).sort()).toEqual(['delivered', 'queued', 'queued']);
    const delivered = lines.find((l) => l.outcome === 'delivered');
    expect(delivered?.permalink).toMatch(/^http/);
    for (const waiting of lines.filter((l) => l.outcome === 'queued')) {
      expect(waiting.error).toBe('token_revoked');
      expect(waiting.message).toBe(
        'the token was refused (token_revoked): run `trayshare login` with a new token, then `trayshare queue --run`.',
      );
    }
    expect(send.stderr).toContain('Run `trayshare login` with a new token');
    expect(send.stderr).not.toMatch(/Settings/);
    expect(send.code).toBe(4);
    expect(service.uploads().length).toBe(before + 1);
  });

  it('`trayshare queue` shows the files waiting for a token and leaves them be', async () => {
    // The service would take them now: a queue that tried them again would send them.
    service.clearFaults();
    const before = service.uploads().length;
    for (let look = 0; look < 2; look++) {
      const queue = await runCli(['queue'], { env });
      const waiting = queue.stdout.split('\n').filter((l) => l.includes('\twaiting\t'));
      expect(waiting).toHaveLength(2);
      for (const line of waiting) {
        expect(line).toMatch(
          /\twaiting\t(one|two|three)\.txt\tC0GENERAL {2}the token was refused \(token_revoked\): run `trayshare login` with a new token, then `trayshare queue --run`\.$/,
        );
      }
      expect(queue.stdout).not.toMatch(/sending/);
      expect(queue.code).toBe(0);
    }
    expect(service.uploads().length).toBe(before);
  });

  it('`queue --run` exits 4 while the token is refused, then sends the files once it works', async () => {
    service.injectFault({ fault: { kind: 'error', error: 'invalid_auth' }, times: 20 });
    const refused = await runCli(['queue', '--run'], { env });
    expect(refused.stderr).toContain('Run `trayshare login` with a new token');
    expect(refused.stderr).not.toMatch(/Settings/);
    expect(refused.code).toBe(4);

    service.clearFaults();
    const before = service.uploads().length;
    const run = await runCli(['queue', '--run'], { env });
    expect(run.stdout.match(/\tdelivered\t/g)).toHaveLength(3);
    expect(run.code).toBe(0);
    expect(service.uploads().length).toBe(before + 2);
  });

  it('send --base-url with a refused TRAYSHARE_TOKEN: a failed line per file, exit 4', async () => {
    const paths = await files(['script.txt']);
    const send = await runCli(
      ['send', '--base-url', service.url, '--channels', 'C0GENERAL', '--json', ...paths],
      { env: { TRAYSHARE_TOKEN: 'xoxb-not-a-token' } },
    );
    expect(jsonLines(send.stdout)).toMatchObject([
      { file: paths[0], outcome: 'failed', error: 'invalid_auth' },
    ]);
    expect(send.stderr).toContain('set TRAYSHARE_TOKEN to a token it accepts');
    expect(send.code).toBe(4);
  });

  it('`trayshare --help` lists every exit code, 4 among them', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    for (const code of ['0', '1', '2', '3', '4'])
      expect(help.stdout).toMatch(new RegExp(`^  ${code}  `, 'm'));
    expect(help.stdout).toMatch(/^ {2}4 {2}the service refused the token/m);
  });
});
