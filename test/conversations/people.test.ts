// People as destinations through the real app service (settings, durable queue, engine) against
// the reference service over real HTTP: a user ID posts to the DM with that person, `@name` is
// found through users.list (a person with no DM yet too), ambiguous and unknown names are
// refused with the candidates, DMs read by the person's name, and a token without users:read
// still shares by user ID and is told, once, what names of people need.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import type { QueueItem } from '../../main/core/model';
import { destinationLabels } from '../../main/portable/people-names';
import { openApp, TOKEN } from '../external/helpers';
import {
  defaultTestConfig,
  type ReferenceService,
  type ServiceConfig,
  startReferenceService,
} from '../reference-service/server';

let dir: string;
let service: ReferenceService;
let app: AppService;
let log: string[];
let workspaceId: string;
let file: string;

async function start(config: Partial<ServiceConfig> = {}): Promise<void> {
  service = await startReferenceService({
    dataDir: join(dir, 'service'),
    config,
    log: (l) => log.push(l),
  });
  app = await openApp({ dataDir: join(dir, 'data') });
  workspaceId = (await app.addWorkspace({ name: 'Acme', baseUrl: service.url })).id;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trayshare-people-'));
  log = [];
  file = join(dir, 'mock-up.png');
  await writeFile(file, 'png bytes');
});

afterEach(async () => {
  await app?.close();
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

async function shareTo(channels: string[]): Promise<QueueItem> {
  const shared = await app.share({ target: { workspaceId, channels }, paths: [file] });
  await app.settled();
  const item = (await app.listQueue()).find((i) => i.id === shared.items[0]!.id);
  if (!item) throw new Error('item gone');
  return item;
}

describe('people as destinations', () => {
  it('a user ID is sent as is and posts in the DM with that person, on both protocols', async () => {
    await start();
    const item = await shareTo(['U0ALICE']);
    expect(item.state).toBe('delivered');
    expect(item.channels).toEqual(['U0ALICE']);
    // A user ID needs no list: neither is fetched to share to one.
    expect(log.filter((l) => l.endsWith('/api/users.list'))).toEqual([]);

    await app.updateWorkspace(workspaceId, { protocol: 'external' });
    expect((await shareTo(['U0ALICE'])).state).toBe('delivered');
    expect(service.messages().map((m) => m.channels)).toEqual([['D0ALICE'], ['D0ALICE']]);
  });

  it('@name is found by display name, handle or full name, also for someone with no DM yet', async () => {
    await start();
    const byDisplayName = await shareTo(['@Bobby']);
    expect(byDisplayName.state).toBe('delivered');
    expect(byDisplayName.channels).toEqual(['U0BOB']);
    expect((await shareTo(['@bob.builder'])).channels).toEqual(['U0BOB']);
    expect((await shareTo(['@Bob Builder', '#general'])).channels).toEqual(['U0BOB', 'C0GENERAL']);
    // Bob had no DM: the service opened one, and every share went there.
    const dms = new Set(service.messages().map((m) => m.channels[0]));
    expect(dms.size).toBe(1);
    expect([...dms][0]).toMatch(/^D/);
    expect([...dms][0]).not.toBe('D0ALICE');
  });

  it('a display name wins over a handle, and a handle over a full name', async () => {
    await start({
      users: [
        { id: 'U0HANDLE', name: 'kim', realName: 'Kim Lee' },
        { id: 'U0SHOWN', name: 'kim.park', realName: 'Kim Park', displayName: 'kim' },
        { id: 'U0FULL', name: 'k.full', realName: 'lee' },
        { id: 'U0LEE', name: 'lee' },
      ],
    });
    expect((await shareTo(['@kim'])).channels).toEqual(['U0SHOWN']);
    expect((await shareTo(['@lee'])).channels).toEqual(['U0LEE']);
    expect((await shareTo(['@Kim Lee'])).channels).toEqual(['U0HANDLE']);
  });

  it('an unknown or ambiguous @name is refused with the people it could be, nothing sent', async () => {
    await start({
      users: [
        ...defaultTestConfig.users,
        { id: 'U0SAM1', name: 'sam.one', displayName: 'sam' },
        { id: 'U0SAM2', name: 'sam.two', displayName: 'sam' },
      ],
    });
    await expect(
      app.share({ target: { workspaceId, channels: ['@bob'] }, paths: [file] }),
    ).rejects.toThrow('No one named @bob in this workspace. Did you mean @Bobby?');
    await expect(
      app.share({ target: { workspaceId, channels: ['@sam'] }, paths: [file] }),
    ).rejects.toThrow(
      '@sam could be more than one person: use one of their user IDs (U0SAM1 (@sam, sam.one), U0SAM2 (@sam, sam.two)).',
    );
    // A deactivated person is not among the people.
    await expect(
      app.share({ target: { workspaceId, channels: ['@gone'] }, paths: [file] }),
    ).rejects.toThrow(/No one named @gone/);
    expect(service.uploads()).toEqual([]);
  });

  it('a reply in a thread with a person goes to their DM (channel_id takes no user ID)', async () => {
    await start();
    await app.updateWorkspace(workspaceId, { protocol: 'external' });
    await app.listConversations(workspaceId, { wait: true });
    expect((await shareTo(['@alice'])).state).toBe('delivered');
    const parent = service.messages()[0]!;
    const link = `${service.url}/archives/D0ALICE/p${parent.ts.replace('.', '')}`;
    for (const thread of [parent.ts, link]) {
      const shared = await app.share({
        target: { workspaceId, channels: ['@alice'] },
        thread,
        paths: [file],
      });
      await app.settled();
      const item = (await app.listQueue()).find((i) => i.id === shared.items[0]!.id);
      expect(item?.state).toBe('delivered');
      expect(item?.channels).toEqual(['D0ALICE']);
    }
    expect(service.messages().slice(1)).toMatchObject([
      { channels: ['D0ALICE'], thread_ts: parent.ts },
      { channels: ['D0ALICE'], thread_ts: parent.ts },
    ]);
    // Bob has no DM yet: there is no thread with him to reply in.
    await expect(
      app.share({
        target: { workspaceId, channels: ['@Bobby'] },
        thread: parent.ts,
        paths: [file],
      }),
    ).rejects.toThrow(/A reply in a thread with a person goes to your DM with them/);
  });

  it('DMs and user IDs read as the person, not as an ID', async () => {
    await start();
    const view = await app.listConversations(workspaceId, { wait: true });
    const labels = destinationLabels(view.conversations, view.people);
    expect(labels.get('D0ALICE')).toBe('@alice');
    expect(labels.get('U0ALICE')).toBe('@alice');
    expect(labels.get('U0BOB')).toBe('@Bobby');
    expect(labels.get('C0GENERAL')).toBe('#general');
    // History is found by the person's name.
    await shareTo(['U0BOB']);
    expect((await app.listHistory({ search: 'bobby' })).map((h) => h.channels)).toEqual([
      ['U0BOB'],
    ]);
  });

  it('without users:read, user IDs still work and the app says once what names need', async () => {
    await start({
      tokens: {
        [TOKEN]: {
          user: 'U0TEST',
          channels: ['C0GENERAL', 'D0ALICE'],
          scopes: ['files:write', 'channels:read', 'groups:read', 'im:read', 'mpim:read'],
        },
      },
    });
    const first = await app.listConversations(workspaceId, { wait: true });
    expect(first.conversations?.map((c) => c.id)).toContain('D0ALICE');
    expect(first.people).toBeUndefined();
    expect(first.peopleProblem?.message).toMatch(/Names of people need the users:read scope/);
    expect(first.announcePeople).toBe(true);
    expect((await app.listConversations(workspaceId, {})).announcePeople).toBe(false);
    // The DM still shows, by its person's ID.
    expect(destinationLabels(first.conversations, first.people).get('D0ALICE')).toBe('@U0ALICE');

    expect((await shareTo(['U0ALICE'])).state).toBe('delivered');
    await expect(
      app.share({ target: { workspaceId, channels: ['@alice'] }, paths: [file] }),
    ).rejects.toThrow(/@alice is a person's name.*need the users:read scope/);
    expect(service.messages().map((m) => m.channels)).toEqual([['D0ALICE']]);
  });
});
