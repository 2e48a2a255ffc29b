// The sign-in's redirect ports: the Slack app lists several fixed loopback redirect URLs and the
// app tries them in order (main/portable/slack-sign-in.ts). Through the real app service, the
// real loopback listener and the reference service over real HTTP.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import { slackRedirectUri } from '../../main/portable/slack-sign-in';
import { createMemorySecretStore } from '../harness/memory-secrets';
import type { ReferenceService } from '../reference-service/server';
import {
  browser,
  DEFAULT_CLIENT_ID,
  freePorts,
  openApp,
  serviceFor,
  signInAndKeep,
} from './sign-in-helpers';

let root: string;
let ports: number[];
let service: ReferenceService | undefined;
const apps: AppService[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-sign-in-ports-'));
  ports = await freePorts(3);
});
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
  await service?.close();
  await rm(root, { recursive: true, force: true });
});

async function start(person = browser()): Promise<AppService> {
  const { app } = await openApp({
    root,
    port: ports,
    secrets: createMemorySecretStore(),
    openBrowser: person.open,
  });
  apps.push(app);
  return app;
}

const signIn = (a: AppService) =>
  signInAndKeep(a, { baseUrl: service!.url, clientId: DEFAULT_CLIENT_ID });

describe('redirect ports', () => {
  it('the first port held by another program: signs in on the next one the Slack app lists', async () => {
    service = await serviceFor(root, ports);
    const other: Server = createServer((_q, r) => r.end());
    await new Promise<void>((resolve) => other.listen(ports[0], '127.0.0.1', resolve));
    try {
      const person = browser();
      const result = await signIn(await start(person));
      expect(result).toMatchObject({ ok: true, user: '@alice' });
      const redirect = new URL(person.opened[0]!).searchParams.get('redirect_uri');
      expect(redirect).toBe(slackRedirectUri(ports[1]));
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('two apps sign in at once (the app and the CLI): each on its own port, both signed in', async () => {
    service = await serviceFor(root, ports);
    const one = browser('away');
    const two = browser('away');
    const [a, b] = [await start(one), await start(two)];
    const first = signIn(a);
    const second = signIn(b);
    await expect.poll(() => one.opened.length + two.opened.length).toBe(2);
    one.choice = {};
    two.choice = {};
    await one.open(one.opened[0]!);
    await two.open(two.opened[0]!);
    expect(await first).toMatchObject({ ok: true });
    expect(await second).toMatchObject({ ok: true });
    const used = [one.opened[0]!, two.opened[0]!].map((u) =>
      new URL(u).searchParams.get('redirect_uri'),
    );
    expect(used.sort()).toEqual([slackRedirectUri(ports[0]), slackRedirectUri(ports[1])].sort());
  });

  it('a Slack app made from the first manifest (one redirect URL, the first port) keeps working', async () => {
    service = await serviceFor(root, [ports[0]!]);
    const person = browser();
    expect(await signIn(await start(person))).toMatchObject({ ok: true, user: '@alice' });
    expect(new URL(person.opened[0]!).searchParams.get('redirect_uri')).toBe(
      slackRedirectUri(ports[0]),
    );
  });
});
