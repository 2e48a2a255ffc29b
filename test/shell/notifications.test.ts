// A notification for each outcome, and what acting on it does.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNotifier, heldNotice } from '../../main/electron/notifications';
import type { QueueItem, View } from '../../preload/contract';
import { FakeNotification } from './fake-electron';
import { type ShellHarness, startShellHarness } from './shell-harness';

function item(state: QueueItem['state'], extra: Partial<QueueItem> = {}): QueueItem {
  return {
    id: `i-${Math.random()}`,
    shareId: 's1',
    workspaceId: 'w1',
    channels: ['C0DESIGN'],
    comment: '',
    path: '/f/report.pdf',
    name: 'report.pdf',
    size: 10,
    mtimeMs: 1,
    state,
    sent: 10,
    attempts: 1,
    createdAt: 1,
    updatedAt: 2,
    ...extra,
  };
}

function notifier() {
  const shown: FakeNotification[] = [];
  const copied: string[] = [];
  const views: View[] = [];
  const flushers: (() => void)[] = [];
  const n = createNotifier({
    create: (o) => {
      const f = new FakeNotification(o);
      shown.push(f);
      return f;
    },
    isSupported: () => true,
    copyText: (t) => copied.push(t),
    openWindow: (v) => views.push(v),
    describeChannels: (ids) => ids.map((id) => (id === 'C0DESIGN' ? '#design' : id)).join(', '),
    log: () => undefined,
    setTimeout: (fn) => flushers.push(fn),
  });
  const flush = () => {
    for (const f of flushers.splice(0)) f();
  };
  return { n, shown, copied, views, flush };
}

describe('notifications', () => {
  it('delivered: names the file and channels; acting on it copies the link', () => {
    const t = notifier();
    t.n.itemFinished(item('delivered', { file: { permalink: 'https://acme.example/f/1' } }));
    t.flush();
    expect(t.shown.map((s) => s.options)).toEqual([
      { title: 'Shared report.pdf', body: 'To #design. Click to copy the link.' },
    ]);
    expect(t.shown[0]!.shown).toBe(true);
    t.shown[0]!.click();
    expect(t.copied).toEqual(['https://acme.example/f/1']);
  });

  it('delivered without a link: acting on it opens the history', () => {
    const t = notifier();
    t.n.itemFinished(item('delivered'));
    t.flush();
    expect(t.shown[0]!.options.body).toBe('To #design.');
    t.shown[0]!.click();
    expect(t.views).toEqual(['history']);
  });

  it('failed: gives the reason; acting on it opens the queue', () => {
    const t = notifier();
    t.n.itemFinished(
      item('failed', {
        error: {
          class: 'target',
          code: 'channel_not_found',
          message: 'Channel C0NOPE does not exist.',
        },
      }),
    );
    t.flush();
    expect(t.shown[0]!.options).toEqual({
      title: 'Could not share report.pdf',
      body: 'Channel C0NOPE does not exist. Click to open the queue.',
    });
    t.shown[0]!.click();
    expect(t.views).toEqual(['queue']);
  });

  it('unknown outcome: says it may have been delivered and to check before resending', () => {
    const t = notifier();
    t.n.itemFinished(item('unknown'));
    t.flush();
    expect(t.shown[0]!.options.title).toBe('report.pdf may have been delivered');
    expect(t.shown[0]!.options.body).toMatch(/Check the channel before sending it again/);
    t.shown[0]!.click();
    expect(t.views).toEqual(['queue']);
  });

  it('cancelled: nothing (the person just did it)', () => {
    const t = notifier();
    t.n.itemFinished(item('cancelled'));
    t.flush();
    expect(t.shown).toEqual([]);
  });

  it('many files finishing together: one notification per outcome', () => {
    const t = notifier();
    for (let i = 0; i < 5; i++) t.n.itemFinished(item('delivered', { name: `f${i}` }));
    t.n.itemFinished(
      item('failed', {
        name: 'x',
        error: { class: 'content', code: 'blocked_file_type', message: 'Blocked.' },
      }),
    );
    t.n.itemFinished(item('failed', { name: 'y' }));
    t.flush();
    expect(t.shown.map((s) => s.options.title)).toEqual([
      'Shared 5 files',
      '2 files could not be shared',
    ]);
    t.shown[0]!.click();
    expect(t.views).toEqual(['history']);
  });

  it('stays quiet where the desktop has no notifications', () => {
    const logs: string[] = [];
    const n = createNotifier({
      create: () => {
        throw new Error('must not be created');
      },
      isSupported: () => false,
      copyText: () => undefined,
      openWindow: () => undefined,
      describeChannels: (ids) => ids.join(),
      log: (l) => logs.push(l),
    });
    n.notify({ title: 'Hello', body: 'x' });
    expect(logs).toEqual(['Notification not shown (not supported here): Hello']);
  });
});

describe('held uploads', () => {
  it('asks for a new token for a workspace the settings have, and opens Settings', () => {
    expect(heldNotice('Acme', 'This token was revoked.')).toEqual({
      title: 'Acme needs a new token',
      body: 'This token was revoked. Uploads to it wait until a new token is saved.',
      view: 'settings',
    });
  });

  it('does not ask for a token for a workspace lost with a damaged settings file', () => {
    const message =
      'The workspace of this upload was in a settings file that was damaged and set aside as config.corrupt-1.json. Put the workspace back…';
    const notice = heldNotice(undefined, message);
    expect(notice).toEqual({
      title: 'Uploads wait for a lost workspace',
      body: message,
      view: 'queue',
    });
    expect(`${notice.title} ${notice.body}`).not.toMatch(/token/);
  });
});

describe('notifications from real uploads', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('tells about a delivered and a failed upload, with channel labels from the preset', async () => {
    h = await startShellHarness();
    const [ok] = await h.files('ok.txt');
    await h.service.share({ target: { presetId: h.demo!.randomPresetId }, paths: [ok!] });
    await h.service.settled();
    await vi.waitFor(() => expect(h.notifications).toHaveLength(1));
    expect(h.notifications[0]!.options).toEqual({
      title: 'Shared ok.txt',
      body: 'To #random. Click to copy the link.',
    });
    h.notifications[0]!.click();
    const [entry] = await h.service.listHistory({ limit: 1 });
    expect(h.clipboard.written).toEqual([entry!.permalink]);

    h.reference.injectFault({ fault: { kind: 'error', error: 'not_in_channel' } });
    const [bad] = await h.files('bad.txt');
    await h.service.share({ target: { presetId: h.demo!.randomPresetId }, paths: [bad!] });
    await h.service.settled();
    await vi.waitFor(() => expect(h.notifications).toHaveLength(2));
    expect(h.notifications[1]!.options.title).toBe('Could not share bad.txt');
    h.notifications[1]!.click();
    expect(h.windows.byHash('queue')).toBeDefined();
  });

  it('names a typed channel ID from the workspace channel list, not as the ID', async () => {
    h = await startShellHarness();
    const [file] = await h.files('typed.txt');
    await h.service.share({
      target: { workspaceId: h.demo!.workspaceId, channels: ['C0GENERAL', 'C0DESIGNX'] },
      paths: [file!],
    });
    await h.service.settled();
    await vi.waitFor(() => expect(h.notifications).toHaveLength(1));
    expect(h.notifications[0]!.options.body).toBe('To #general, #design. Click to copy the link.');
  });

  it('asks for a new token when the service refuses it, and clears the alarm once one is saved', async () => {
    h = await startShellHarness();
    h.reference.injectFault({ fault: { kind: 'error', error: 'invalid_auth' } });
    const [file] = await h.files('t.txt');
    await h.service.share({ target: { presetId: h.demo!.randomPresetId }, paths: [file!] });
    await vi.waitFor(() =>
      expect(h.notifications.map((n) => n.options.title)).toContain('Acme needs a new token'),
    );
    await vi.waitFor(() => expect(h.tray.image).toBe('/icons/tray-attention.png'));
    h.shell.activate();
    const main = h.windows.open()[0]!;
    await h.call(main, 'setToken', h.demo!.workspaceId, 'xoxb-test-token');
    await h.service.settled();
    await vi.waitFor(() => expect(h.reference.uploads()).toHaveLength(1));
  });

  it('tells about a keychain problem at start, and acting on it opens the settings', async () => {
    h = await startShellHarness({
      keychainProblem: 'No Secret Service is running: start gnome-keyring or KWallet.',
    });
    expect(h.notifications.map((n) => n.options)).toContainEqual({
      title: 'Trayshare cannot use the keychain',
      body: 'No Secret Service is running: start gnome-keyring or KWallet.',
    });
    h.notifications.find((n) => n.options.title.includes('keychain'))!.click();
    expect(h.windows.byHash('settings')).toBeDefined();
  });
});
