// What real Slack does to the channel list, from the command line over real HTTP against the
// reference service: a token without one read scope still resolves
// the names it may list, a rate-limited list neither blocks a send by IDs nor fails a send by
// names within --max-wait, and an entry without is_member is no reason to refuse.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultTestConfig,
  type ReferenceService,
  startReferenceService,
} from '../reference-service/server';
import { jsonLines, runCli } from './run-cli';

const FULL = 'xoxb-test-token';
/** Granted channels:read and groups:read but neither im:read nor mpim:read (issue 21, point 2). */
const NO_DMS = 'xoxp-no-dm-scopes';
/** May upload and nothing else: conversations.list refuses it every type. */
const FILES_ONLY = 'xoxp-files-only';

let service: ReferenceService;
let dir: string;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-list-limits-'));
  service = await startReferenceService({
    dataDir: join(dir, 'service'),
    config: {
      channels: [
        ...defaultTestConfig.channels,
        // Listed without is_member, as some Slack entries come: the token is in the first only.
        { id: 'C0QUIET', name: 'quiet', omitIsMember: true },
        { id: 'C0ASIDE', name: 'aside', omitIsMember: true },
      ],
      tokens: {
        [FULL]: { user: 'U0TEST', channels: ['C0GENERAL', 'C0DESIGN', 'C0QUIET', 'D0ALICE'] },
        [NO_DMS]: {
          user: 'U0TEST',
          channels: ['C0GENERAL', 'D0ALICE'],
          scopes: ['files:write', 'channels:read', 'groups:read'],
        },
        [FILES_ONLY]: { user: 'U0TEST', channels: ['C0GENERAL'], scopes: ['files:write'] },
      },
    },
  });
  file = join(dir, 'report.txt');
  await writeFile(file, 'report');
});

afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => service.clearFaults());

const direct = (token: string, channels: string, extra: string[] = []) =>
  runCli(['send', '--base-url', service.url, '--channels', channels, '--json', ...extra, file], {
    env: { TRAYSHARE_DATA_DIR: join(dir, 'data'), TRAYSHARE_TOKEN: token },
  });

const sentTo = (before: number) =>
  service
    .uploads()
    .slice(before)
    .map((u) => u.channels);

describe('names with whatever scopes the token has', () => {
  it('#general resolves without im:read, and the missing names are said once, with the scopes', async () => {
    const before = service.uploads().length;
    const run = await direct(NO_DMS, '#general');
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).map((l) => l.outcome)).toEqual(['delivered']);
    expect(sentTo(before)).toEqual([['C0GENERAL']]);
    const note =
      'Some names are not listed (group DMs need mpim:read, DMs need im:read): add the scope to the app, or use their IDs.';
    expect(run.stderr.split('\n').filter((line) => line === note)).toHaveLength(1);

    // A DM by its name is among what this token cannot list: the refusal says why.
    const dm = await direct(NO_DMS, '@U0ALICE');
    expect(dm.code).toBe(2);
    expect(dm.stderr).toContain(
      'No channel named @U0ALICE that this token can see. Not listed for this token: group DMs need mpim:read, DMs need im:read.',
    );
    expect(sentTo(before)).toHaveLength(1);
  });

  it('a send by IDs goes out although the token may list nothing', async () => {
    const before = service.uploads().length;
    const run = await direct(FILES_ONLY, 'C0GENERAL');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(sentTo(before)).toEqual([['C0GENERAL']]);
  });
});

describe('lists never block a send', () => {
  it('a send by IDs does not ask for the list: a rate-limited list cannot stop it', async () => {
    service.injectFault({
      method: 'conversations.list',
      fault: { kind: 'ratelimit', retryAfter: 600 },
    });
    const before = service.uploads().length;
    const run = await direct(FULL, 'C0GENERAL,C0DESIGN');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(sentTo(before)).toEqual([['C0GENERAL', 'C0DESIGN']]);
    // The one-time fault is still waiting: the send never called conversations.list.
    const list = await fetch(`${service.url}/api/conversations.list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${FULL}` },
    });
    expect(list.status).toBe(429);
  });

  it('a send by name waits out a Retry-After within --max-wait, and says what it waited for', async () => {
    service.injectFault({
      method: 'conversations.list',
      fault: { kind: 'ratelimit', retryAfter: 1 },
    });
    const before = service.uploads().length;
    const run = await direct(FULL, '#design-review', ['--max-wait', '5']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Waited 1 s: the service rate-limited the channel list.');
    expect(sentTo(before)).toEqual([['C0DESIGN']]);
  });

  it('a Retry-After past --max-wait is a usage error that says so, and sends nothing', async () => {
    service.injectFault({
      method: 'conversations.list',
      fault: { kind: 'ratelimit', retryAfter: 30 },
    });
    const before = service.uploads().length;
    const run = await direct(FULL, '#design-review', ['--max-wait', '2']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'The service rate-limited the channel list for 30 s, longer than --max-wait (2 s).\nNames need the channel list; give channel IDs.',
    );
    expect(sentTo(before)).toEqual([]);
  });
});

describe('is_member missing means unknown', () => {
  it('a channel listed without is_member is sent to; if the service refuses it, the failure names it', async () => {
    const before = service.uploads().length;
    const member = await direct(FULL, '#quiet');
    expect(member.code).toBe(0);
    expect(jsonLines(member.stdout).map((l) => l.outcome)).toEqual(['delivered']);
    expect(sentTo(before)).toEqual([['C0QUIET']]);

    // Not a member after all: the list could not say, so the service's not_in_channel does.
    const outsider = await direct(FULL, '#aside');
    const [line] = jsonLines(outsider.stdout);
    expect(line).toMatchObject({ outcome: 'failed', error: 'not_in_channel' });
    expect(line?.message).toContain('not a member of C0ASIDE');
    expect(sentTo(before)).toHaveLength(1);

    // is_member: false still refuses before anything is sent.
    const refused = await direct(FULL, '#design-ops');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not a member of #design-ops: invite the app first/);
    expect(sentTo(before)).toHaveLength(1);
  });
});
