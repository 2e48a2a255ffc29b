// A send whose workspace the queue already holds for a token: an older file of it was refused
// before this send listened for the refusal (the queue says so once per workspace), so its own
// files are never started. Over real HTTP, the built CLI: the send must end with the refusal's
// words and exit code. (Before, it waited on nothing: Node ended it with exit code 13 and only
// "Detected unsettled top-level await" on stderr.)
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
  ({ service, dir, env } = await loggedInAcme('trayshare-held-'));
});

afterAll(() => closeAcme({ service, dir, env }));

async function file(name: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `${name}\n`);
  return path;
}

describe('a workspace already held for a token', () => {
  it('a second send ends with the refusal and exit 4 instead of waiting for ever', async () => {
    service.clearFaults();
    service.injectFault({ fault: { kind: 'error', error: 'invalid_auth' }, times: 50 });
    const first = await runCli(
      ['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', await file('first.txt')],
      { env },
    );
    expect(first.code).toBe(4);

    // The second send opens the queue, which tries first.txt again at once: by the time the
    // channel list (slowed here) has named #general and second.txt is queued, the service has
    // refused first.txt and the queue has said so, before this send listened.
    service.injectFault({
      method: 'conversations.list',
      fault: { kind: 'slow', delayMs: 1500 },
    });
    const before = service.uploads().length;
    const second = await runCli(
      ['send', '--workspace', 'Acme', '--channels', '#general', '--json', await file('second.txt')],
      { env, timeoutMs: 60_000 },
    );
    expect(jsonLines(second.stdout)).toEqual([
      {
        file: join(dir, 'second.txt'),
        outcome: 'queued',
        id: null,
        permalink: null,
        error: 'invalid_auth',
        message:
          'the token was refused (invalid_auth): run `trayshare login` with a new token, then `trayshare queue --run`.',
      },
    ]);
    expect(second.stderr).toContain('Run `trayshare login` with a new token');
    expect(second.code).toBe(4);
    expect(service.uploads().length).toBe(before);

    // Both files wait for the token, and go once it works.
    service.clearFaults();
    const run = await runCli(['queue', '--run'], { env });
    expect(run.stdout.match(/\tdelivered\t/g)).toHaveLength(2);
    expect(run.code).toBe(0);
    expect(service.uploads().length).toBe(before + 2);
  }, 120_000);
});
