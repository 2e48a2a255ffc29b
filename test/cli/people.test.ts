// People from the command line, over real HTTP against the reference service: a user ID posts
// to the DM with that person, `@name` is found through users.list (with a saved workspace and
// with --base-url), DMs are listed by the person's name, and a token without users:read still
// sends by user ID and is told what names of people need.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceService, startReferenceService } from '../reference-service/server';
import { jsonLines, runCli } from './run-cli';

const TOKEN = 'xoxb-test-token';
const NARROW = 'xoxp-no-users-read';
let service: ReferenceService;
let dir: string;
let env: NodeJS.ProcessEnv;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-cli-people-'));
  service = await startReferenceService({
    dataDir: join(dir, 'service'),
    config: {
      tokens: {
        [TOKEN]: { user: 'U0TEST', channels: ['C0GENERAL', 'D0ALICE'] },
        [NARROW]: {
          user: 'U0TEST',
          channels: ['C0GENERAL', 'D0ALICE'],
          scopes: ['files:write', 'channels:read', 'groups:read', 'im:read', 'mpim:read'],
        },
      },
    },
  });
  env = { TRAYSHARE_DATA_DIR: join(dir, 'data') };
  file = join(dir, 'mock-up.png');
  await writeFile(file, 'png bytes');
  for (const [name, token] of [
    ['Acme', TOKEN],
    ['Narrow', NARROW],
  ] as const) {
    const login = await runCli(['login', '--workspace', name, '--base-url', service.url], {
      env,
      input: `${token}\n`,
    });
    expect(login.code).toBe(0);
  }
});

afterAll(async () => {
  for (const name of ['Acme', 'Narrow']) await runCli(['logout', '--workspace', name], { env });
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

const lastMessage = () => service.messages().at(-1);

describe('trayshare send to people', () => {
  it('--channels U0ALICE posts in the DM with Alice', async () => {
    const run = await runCli(
      ['send', '--workspace', 'Acme', '--channels', 'U0ALICE', '--json', file],
      { env },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).map((l) => l.outcome)).toEqual(['delivered']);
    expect(lastMessage()?.channels).toEqual(['D0ALICE']);
  });

  it('--channels @Bobby finds Bob through users.list, though he has no DM yet', async () => {
    const before = service.messages().length;
    const saved = await runCli(
      ['send', '--workspace', 'Acme', '--channels', '@Bobby,#general', file],
      { env },
    );
    expect(saved.code).toBe(0);
    const direct = await runCli(
      [
        'send',
        '--base-url',
        service.url,
        '--protocol',
        'external',
        '--channels',
        '@bob.builder',
        file,
      ],
      { env: { ...env, TRAYSHARE_TOKEN: TOKEN } },
    );
    expect(direct.code).toBe(0);
    const [first, second] = service.messages().slice(before);
    expect(first?.channels).toEqual([expect.stringMatching(/^D/), 'C0GENERAL']);
    expect(first?.channels[0]).not.toBe('D0ALICE');
    // Both went to the one DM the service opened with Bob.
    expect(second?.channels).toEqual([first?.channels[0]]);
  });

  it('a preset may name a person; it is looked up when the preset is used', async () => {
    const added = await runCli(
      ['presets', 'add', 'To Bob', '--workspace', 'Acme', '--channels', '@Bobby,U0ALICE'],
      { env },
    );
    expect(added.code).toBe(0);
    const run = await runCli(['send', '--preset', 'To Bob', file], { env });
    expect(run.code).toBe(0);
    expect(lastMessage()?.channels).toEqual([expect.stringMatching(/^D/), 'D0ALICE']);
    expect(lastMessage()?.channels[0]).not.toBe('D0ALICE');
  });

  it('--thread with a person asks for the DM: a reply goes by channel_id, which takes no user ID', async () => {
    const before = service.uploads().length;
    const run = await runCli(
      [
        'send',
        '--base-url',
        service.url,
        '--protocol',
        'external',
        '--channels',
        '@alice',
        '--thread',
        '1700000000.000100',
        file,
      ],
      { env: { ...env, TRAYSHARE_TOKEN: TOKEN } },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /--thread with a person replies in your DM with them: give the DM’s ID/,
    );
    expect(service.uploads().length).toBe(before);
  });

  it('a rate-limited people list is waited out within --max-wait', async () => {
    service.injectFault({ method: 'users.list', fault: { kind: 'ratelimit', retryAfter: 1 } });
    const run = await runCli(
      ['send', '--base-url', service.url, '--channels', '@alice', '--max-wait', '5', file],
      { env: { ...env, TRAYSHARE_TOKEN: TOKEN } },
    );
    expect(run.code).toBe(0);
    expect(lastMessage()?.channels).toEqual(['D0ALICE']);
    service.injectFault({ method: 'users.list', fault: { kind: 'ratelimit', retryAfter: 60 } });
    const before = service.uploads().length;
    const refused = await runCli(
      ['send', '--base-url', service.url, '--channels', '@alice', '--max-wait', '5', file],
      { env: { ...env, TRAYSHARE_TOKEN: TOKEN } },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/limiting how often its people can be fetched/);
    expect(service.uploads().length).toBe(before);
  });

  it('an unknown @name is a usage error listing close matches, nothing sent', async () => {
    const before = service.uploads().length;
    const run = await runCli(['send', '--workspace', 'Acme', '--channels', '@bob', file], {
      env,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/No one named @bob in this workspace\. Did you mean @Bobby\?/);
    expect(service.uploads().length).toBe(before);
  });
});

describe('trayshare channels shows DMs by name', () => {
  it('lists the DM with Alice as @alice, its user ID kept in --json', async () => {
    const text = await runCli(['channels', '--workspace', 'Acme'], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^D0ALICE\t@alice\tDM$/m);
    expect(text.stdout).not.toContain('U0ALICE');
    const json = await runCli(['channels', '--workspace', 'Acme', '--json'], { env });
    expect(JSON.parse(json.stdout)).toContainEqual({
      id: 'D0ALICE',
      name: 'alice',
      kind: 'dm',
      isMember: true,
      user: 'U0ALICE',
    });
  });
});

describe('trayshare queue and history show people by name', () => {
  it('from the saved lists, never as user or DM IDs', async () => {
    // The lists as `channels` (or a send by name) saved them.
    expect((await runCli(['channels', '--workspace', 'Acme'], { env })).code).toBe(0);
    const history = await runCli(['history'], { env });
    expect(history.code).toBe(0);
    expect(history.stdout).toMatch(/\tAcme: @alice\t/);
    expect(history.stdout).toMatch(/\tAcme: @Bobby,#general\t/);
    const queue = await runCli(['queue'], { env });
    expect(queue.stdout).toMatch(/\tdelivered\tmock-up\.png\t@alice$/m);
    expect(`${history.stdout}${queue.stdout}`).not.toMatch(/U0ALICE|U0BOB|D0ALICE/);
  });
});

describe('a token without users:read', () => {
  it('still sends by user ID; names of people are refused with what they need', async () => {
    const listed = await runCli(['channels', '--workspace', 'Narrow'], { env });
    expect(listed.code).toBe(0);
    expect(listed.stderr).toMatch(/Names of people need the users:read scope/);
    // The DM is still listed, by its person's ID.
    expect(listed.stdout).toMatch(/^D0ALICE\t@U0ALICE\tDM$/m);

    const byId = await runCli(['send', '--workspace', 'Narrow', '--channels', 'U0ALICE', file], {
      env,
    });
    expect(byId.code).toBe(0);
    expect(lastMessage()?.channels).toEqual(['D0ALICE']);

    const before = service.uploads().length;
    const byName = await runCli(['send', '--base-url', service.url, '--channels', '@alice', file], {
      env: { ...env, TRAYSHARE_TOKEN: NARROW },
    });
    expect(byName.code).toBe(2);
    expect(byName.stderr).toMatch(
      /@alice is a person's name, and this workspace's people are not available: Names of people need the users:read scope/,
    );
    expect(service.uploads().length).toBe(before);
  });
});
