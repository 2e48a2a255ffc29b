// Channels by name from the command line, over real HTTP against the reference service: the
// list comes in pages, names resolve through the CLI's cache (or straight from the service with
// --base-url), and a channel the app is not in is refused before any byte is sent.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultTestConfig,
  type ReferenceService,
  startReferenceService,
} from '../reference-service/server';
import { jsonLines, runCli } from './run-cli';

const TOKEN = 'xoxb-test-token';
// 450 more channels than the defaults: the CLI asks 200 a page, so the list takes 3 pages.
const MANY = Array.from({ length: 450 }, (_, i) => ({
  id: `C1BULK${String(i).padStart(4, '0')}`,
  name: `bulk-${i}`,
}));
let service: ReferenceService;
let dir: string;
let env: NodeJS.ProcessEnv;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-channels-'));
  service = await startReferenceService({
    dataDir: join(dir, 'service'),
    config: { channels: [...defaultTestConfig.channels, ...MANY] },
  });
  env = { TRAYSHARE_DATA_DIR: join(dir, 'data') };
  file = join(dir, 'mock-up.png');
  await writeFile(file, 'png bytes');
  const login = await runCli(['login', '--workspace', 'Acme', '--base-url', service.url], {
    env,
    input: `${TOKEN}\n`,
  });
  expect(login.code).toBe(0);
});

afterAll(async () => {
  await runCli(['logout', '--workspace', 'Acme'], { env });
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

describe('trayshare channels', () => {
  it('lists every page of what the token can see, with membership', async () => {
    const run = await runCli(['channels', '--workspace', 'Acme', '--json'], { env });
    expect(run.code).toBe(0);
    const list = JSON.parse(run.stdout) as {
      id: string;
      name: string;
      kind: string;
      isMember: boolean;
    }[];
    // 6 default conversations the token can see (archived and someone else's private left out).
    expect(list).toHaveLength(456);
    expect(list.at(-1)).toEqual({
      id: 'C1BULK0449',
      name: 'bulk-449',
      kind: 'public',
      isMember: false,
    });
    expect(list).toContainEqual({
      id: 'C0DESIGN',
      name: 'design-review',
      kind: 'public',
      isMember: true,
    });
    // A DM is named after its person (users.list), its user ID kept.
    expect(list).toContainEqual({
      id: 'D0ALICE',
      name: 'alice',
      kind: 'dm',
      isMember: true,
      user: 'U0ALICE',
    });
    expect(list.some((c) => c.id === 'C0OLD' || c.id === 'C0SECRET')).toBe(false);

    const text = await runCli(['channels', '--workspace', 'Acme'], { env });
    expect(text.stdout).toMatch(/C0DESIGN\t#design-review\tpublic\n/);
    expect(text.stdout).toMatch(
      /C0DESIGNOPS\t#design-ops\tpublic {2}\(not a member: invite the app first\)/,
    );
  });
});

describe('trayshare send --channels by name', () => {
  it('resolves #design-review next to a typed ID and delivers once', async () => {
    const before = service.uploads().length;
    const run = await runCli(
      ['send', '--workspace', 'Acme', '--channels', '#design-review,C0GENERAL', '--json', file],
      { env },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).map((l) => l.outcome)).toEqual(['delivered']);
    expect(
      service
        .uploads()
        .slice(before)
        .map((u) => u.channels),
    ).toEqual([['C0DESIGN', 'C0GENERAL']]);
  });

  it('an unknown name is a usage error listing close matches', async () => {
    const before = service.uploads().length;
    const run = await runCli(
      ['send', '--workspace', 'Acme', '--channels', '#desing-review', file],
      {
        env,
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/No channel named #desing-review .*Did you mean #design-review/);
    expect(service.uploads().length).toBe(before);
  });

  it('refuses a channel the app is not a member of, by name or by ID, naming it #design-ops, before sending anything', async () => {
    const before = service.uploads().length;
    const byName = await runCli(
      ['send', '--workspace', 'Acme', '--channels', '#design-ops,C0GENERAL', file],
      { env },
    );
    expect(byName.code).toBe(2);
    expect(byName.stderr).toMatch(/not a member of #design-ops: invite the app first/);
    const byId = await runCli(['send', '--workspace', 'Acme', '--channels', 'C0DESIGNOPS', file], {
      env,
    });
    expect(byId.code).toBe(2);
    // Given by ID, the channel is still named as people know it, not by its raw ID.
    expect(byId.stderr).toMatch(/not a member of #design-ops: invite the app first/);
    expect(service.uploads().length).toBe(before);
    // Nothing was queued either.
    const queue = await runCli(['queue', '--json'], { env });
    expect(queue.stdout).not.toContain('C0DESIGNOPS');
  });

  it('with a saved workspace, IDs never fetch the list and a name waits out a Retry-After within --max-wait', async () => {
    // No saved list: a send that needs one has to fetch it.
    await rm(join(dir, 'data', 'cli-state', 'conversations'), { recursive: true, force: true });
    service.injectFault({
      method: 'conversations.list',
      fault: { kind: 'ratelimit', retryAfter: 1 },
    });
    const before = service.uploads().length;
    const byId = await runCli(
      ['send', '--workspace', 'Acme', '--channels', 'C0GENERAL', '--json', file],
      { env },
    );
    expect(byId.stderr).toBe('');
    expect(byId.code).toBe(0);
    // The one-time limit is met by the send by name: the send by IDs never asked for the list.
    const byName = await runCli(
      ['send', '--workspace', 'Acme', '--channels', '#design-review', '--max-wait', '5', file],
      { env },
    );
    expect(byName.code).toBe(0);
    expect(byName.stderr).toContain('Waited 1 s: the service rate-limited the channel list.');
    expect(
      service
        .uploads()
        .slice(before)
        .map((u) => u.channels),
    ).toEqual([['C0GENERAL'], ['C0DESIGN']]);
  });

  it('with --base-url, looks names up straight from the service', async () => {
    const before = service.uploads().length;
    const run = await runCli(
      ['send', '--base-url', service.url, '--channels', 'design', '--json', file],
      { env: { ...env, TRAYSHARE_TOKEN: TOKEN } },
    );
    expect(run.code).toBe(0);
    expect(
      service
        .uploads()
        .slice(before)
        .map((u) => u.channels),
    ).toEqual([['C0DESIGNX']]);
    const wrong = await runCli(
      ['send', '--base-url', service.url, '--channels', '#design-revue', file],
      { env: { ...env, TRAYSHARE_TOKEN: TOKEN } },
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/Did you mean #design-review/);
  });
});

describe('trayshare send --thread', () => {
  it('replies in the thread of a message link, in that one channel, with either protocol', async () => {
    const parent = await runCli(
      ['send', '--workspace', 'Acme', '--channels', '#design-review', '--comment', 'v1', file],
      { env },
    );
    expect(parent.code).toBe(0);
    const parentTs = service.messages().at(-1)!.ts;
    const link = `${service.url}/archives/C0DESIGN/p${parentTs.replace('.', '')}`;

    const reply = await runCli(
      ['send', '--workspace', 'Acme', '--channels', 'C0DESIGN', '--thread', link, file],
      { env },
    );
    expect(reply.code).toBe(0);
    expect(service.messages().at(-1)).toMatchObject({
      channels: ['C0DESIGN'],
      thread_ts: parentTs,
    });

    const external = await runCli(
      [
        'send',
        '--base-url',
        service.url,
        '--protocol',
        'external',
        '--channels',
        'C0DESIGN',
        '--thread',
        parentTs,
        file,
      ],
      { env: { ...env, TRAYSHARE_TOKEN: TOKEN } },
    );
    expect(external.code).toBe(0);
    expect(service.messages().at(-1)).toMatchObject({
      channels: ['C0DESIGN'],
      thread_ts: parentTs,
    });

    const count = service.messages().length;
    const twoChannels = await runCli(
      ['send', '--workspace', 'Acme', '--channels', 'C0DESIGN,C0GENERAL', '--thread', link, file],
      { env },
    );
    expect(twoChannels.code).toBe(2);
    expect(twoChannels.stderr).toMatch(/goes to that thread's channel only \(C0DESIGN\)/);
    expect(service.messages()).toHaveLength(count);
  });

  it('sends the comment with the first file of a share only', async () => {
    const second = join(dir, 'notes.txt');
    await writeFile(second, 'notes');
    const before = service.messages().length;
    const run = await runCli(
      [
        'send',
        '--workspace',
        'Acme',
        '--channels',
        'C0GENERAL',
        '--comment',
        'Two files',
        file,
        second,
      ],
      { env },
    );
    expect(run.code).toBe(0);
    // The files upload side by side, so their messages may arrive in either order: the comment
    // belongs to the first file named, wherever its message lands.
    const names = new Map(service.uploads().map((u) => [u.id, u.name]));
    const commentOf = Object.fromEntries(
      service
        .messages()
        .slice(before)
        .map((m) => [names.get(m.files[0]!), m.initial_comment]),
    );
    expect(commentOf).toEqual({ [basename(file)]: 'Two files', 'notes.txt': null });
  });
});
