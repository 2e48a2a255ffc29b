// A photo or video sent without its hidden details survives a crash: the CLI is SIGKILLed while
// the service holds its bytes unanswered, then `queue --run` delivers the file once, with the
// same stripped bytes (the journal records that it is sent stripped and at what length).
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { privateTags, topLevelBox, videoSample } from '../metadata/samples';
import { type AcmeWorkspace, closeAcme, loggedInAcme } from './acme-workspace';
import { CLI, runCli } from './run-cli';

let acme: AcmeWorkspace;
beforeAll(async () => {
  acme = await loggedInAcme('trayshare-crash-stripped-');
  const login = await runCli(
    ['login', '--workspace', 'Slack', '--base-url', acme.service.url, '--protocol', 'external'],
    { env: acme.env, input: 'xoxb-test-token\n' },
  );
  expect(login.code).toBe(0);
});
afterAll(async () => {
  await runCli(['logout', '--workspace', 'Slack'], { env: acme.env });
  await closeAcme(acme);
});

async function until(what: string, check: () => boolean): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

it('killed while its bytes are unanswered, a stripped video is delivered once by `queue --run`, without its location', async () => {
  const { service, env, dir } = acme;
  const video = videoSample(dir, 'crash.mov', 256 * 1024);
  const original = await readFile(video);
  // The bytes' answer is held, so the kill comes while the send is under way.
  service.injectFault({
    fault: { kind: 'gather', count: 99, maxWaitMs: 30_000 },
    method: 'upload',
  });
  const uploadsBefore = service.traffic().countOf.upload ?? 0;
  const messagesBefore = service.messages().length;
  const child = spawn(
    process.execPath,
    [CLI, 'send', '--workspace', 'Slack', '--channels', 'C0GENERAL', video],
    { env: { ...process.env, TRAYSHARE_TOKEN: '', ...env }, stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.on('close', resolve));
  await until(
    'the bytes on their way',
    () => (service.traffic().countOf.upload ?? 0) > uploadsBefore,
  );
  child.kill('SIGKILL');
  await exited;
  service.clearFaults();
  // The journal says the file goes without its details, and at what length.
  const journal = await readFile(
    join(String(env.TRAYSHARE_DATA_DIR), 'cli-state', 'queue', 'queue.jsonl'),
    'utf8',
  );
  const added = journal
    .split('\n')
    .filter((line) => line.includes('"t":"add"'))
    .map(
      (line) =>
        JSON.parse(line) as {
          item: { name: string; stripped?: { size: number; removed: string[] } };
        },
    )
    .find((r) => r.item.name === 'crash.mov');
  expect(added?.item.stripped).toEqual({
    size: original.length,
    removed: expect.arrayContaining(['location']),
  });

  const run = await runCli(['queue', '--run'], { env, timeoutMs: 60_000 });
  expect(run.code).toBe(0);
  const made = service.messages().slice(messagesBefore);
  expect(made).toHaveLength(1);
  expect(made[0]?.files).toHaveLength(1);
  const got = await readFile(service.storedPath(made[0]?.files[0] ?? ''));
  const gotPath = join(dir, 'crash-received.mov');
  await writeFile(gotPath, got);
  expect(privateTags(gotPath)).toEqual([]);
  expect(got.length).toBe(original.length);
  const mdat = topLevelBox(original, 'mdat');
  expect(mdat && topLevelBox(got, 'mdat')?.equals(mdat)).toBe(true);
}, 120_000);
