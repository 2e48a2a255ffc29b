// A notification for each outcome, and what acting on it does.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ActivationDetails,
  createNotifier,
  heldNotice,
} from '../../main/electron/notifications';
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

function notifier(windows = false) {
  const shown: FakeNotification[] = [];
  const copied: string[] = [];
  const views: View[] = [];
  const logs: string[] = [];
  const flushers: (() => void)[] = [];
  let activation: ((details: ActivationDetails) => void) | undefined;
  const n = createNotifier({
    ...(windows
      ? {
          handleActivation: (callback: (details: ActivationDetails) => void) => {
            activation = callback;
          },
        }
      : {}),
    create: (o) => {
      const f = new FakeNotification(o);
      shown.push(f);
      return f;
    },
    isSupported: () => true,
    copyText: (t) => copied.push(t),
    openWindow: (v) => views.push(v),
    describeChannels: (ids) => ids.map((id) => (id === 'C0DESIGN' ? '#design' : id)).join(', '),
    log: (line) => logs.push(line),
    setTimeout: (fn) => flushers.push(fn),
  });
  const flush = () => {
    for (const f of flushers.splice(0)) f();
  };
  /** Windows hands a click to handleActivation (Action Center, or the click that started us). */
  const activate = (details: ActivationDetails) => activation!(details);
  return { n, shown, copied, views, logs, flush, activate };
}

/** The launch string of a toast, as Windows hands it back in ActivationArguments.arguments. */
function launchOf(toastXml: string | undefined): string {
  const raw = /<toast launch="([^"]*)"/.exec(toastXml ?? '')?.[1];
  if (raw === undefined) throw new Error(`no launch attribute in ${toastXml}`);
  return raw.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
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
    expect(logs).toEqual(['Notification not shown (not supported here).']);
  });
});

describe('notifications the OS refuses', () => {
  it('are logged and let go; a failed share opens the queue instead', () => {
    const t = notifier();
    t.n.itemFinished(item('delivered', { file: { permalink: 'https://acme.example/f/1' } }));
    t.n.itemFinished(item('failed', { name: 'x.pdf' }));
    t.flush();
    expect(t.n.held()).toBe(2);
    // An unsigned macOS build: UNNotification refuses every notification.
    for (const shown of t.shown) shown.fail('Notifications are not allowed for this application');
    expect(t.n.held()).toBe(0);
    expect(t.logs).toEqual([
      'Notification not shown (Notifications are not allowed for this application).',
      'Notification not shown (Notifications are not allowed for this application).',
    ]);
    // A delivered file needs nothing; the failed one must not go unnoticed.
    expect(t.views).toEqual(['queue']);
    expect(t.copied).toEqual([]);
  });

  it('let go of those that were closed or clicked too', () => {
    const t = notifier();
    t.n.itemFinished(item('delivered'));
    t.n.itemFinished(item('unknown'));
    t.flush();
    t.shown[0]!.emit('close');
    t.shown[1]!.click();
    expect(t.n.held()).toBe(0);
  });
});

describe('notification clicks on Windows (Notification.handleActivation)', () => {
  it('writes what the click does into the toast, escaped', () => {
    const t = notifier(true);
    t.n.itemFinished(
      item('delivered', {
        name: 'a<b> & "c".pdf',
        file: { permalink: 'https://acme.example/f/1?x=1&y=2' },
      }),
    );
    t.flush();
    const options = t.shown[0]!.options;
    expect(options.title).toBe('Shared a<b> & "c".pdf');
    expect(options.toastXml).toContain('<text>Shared a&#60;b&#62; &#38; &#34;c&#34;.pdf</text>');
    expect(new URLSearchParams(launchOf(options.toastXml)).get('copy')).toBe(
      'https://acme.example/f/1?x=1&y=2',
    );
  });

  it('copies the link from Action Center once the notification object is gone', () => {
    const t = notifier(true);
    t.n.itemFinished(item('delivered', { file: { permalink: 'https://acme.example/f/9' } }));
    t.flush();
    const launch = launchOf(t.shown[0]!.options.toastXml);
    // The object is never clicked (collected); Windows calls the activation handler instead.
    t.activate({ type: 'click', arguments: launch });
    expect(t.copied).toEqual(['https://acme.example/f/9']);
  });

  it('acts once when both the object and the activation handler get the click', () => {
    const t = notifier(true);
    t.n.itemFinished(item('failed'));
    t.flush();
    t.shown[0]!.click();
    t.activate({ type: 'click', arguments: launchOf(t.shown[0]!.options.toastXml) });
    expect(t.views).toEqual(['queue']);
  });

  it('still opens the queue when the click starts Trayshare again (a notice of an earlier run)', () => {
    const earlier = notifier(true);
    earlier.n.itemFinished(item('unknown'));
    earlier.flush();
    const launch = launchOf(earlier.shown[0]!.options.toastXml);

    const now = notifier(true);
    now.activate({ type: 'click', arguments: launch });
    expect(now.views).toEqual(['queue']);
    expect(earlier.views).toEqual([]);
  });

  it('ignores clicks on toasts Trayshare did not write, and anything but views and https links', () => {
    const t = notifier(true);
    for (const args of [
      '',
      'type=click&tag=abc',
      'trayshare=1&open=devtools',
      'trayshare=1&copy=javascript%3Aalert(1)',
      'trayshare=1&copy=file%3A%2F%2F%2Fetc%2Fpasswd',
    ]) {
      t.activate({ type: 'click', arguments: args });
    }
    expect(t.copied).toEqual([]);
    expect(t.views).toEqual([]);
  });

  it('gives toasts elsewhere no Windows XML', () => {
    const t = notifier(false);
    t.n.notify({ title: 'Hi', body: 'there' });
    expect(t.shown[0]!.options).toEqual({ title: 'Hi', body: 'there' });
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

  it('asks a signed-in workspace to sign in again, not for a token', () => {
    const message = 'Your sign-in to Acme has run out: sign in again to send the waiting files.';
    const notice = heldNotice('Acme', message, true);
    expect(notice).toEqual({ title: 'Sign in to Acme again', body: message, view: 'settings' });
    expect(`${notice.title} ${notice.body}`).not.toMatch(/token/);
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

  it('opens Settings when the OS refuses the keychain notice (an unsigned macOS build)', async () => {
    h = await startShellHarness({
      platform: 'darwin',
      keychainProblem: 'The login keychain is locked.',
      notificationsFail: 'Notifications are not allowed for this application',
    });
    expect(h.windows.byHash('settings')).toBeDefined();
    expect(h.logs).toContain(
      'Notification not shown (Notifications are not allowed for this application).',
    );
  });

  it('on Windows, copies a delivered file’s link from Action Center after the notification object is gone', async () => {
    h = await startShellHarness({ platform: 'win32' });
    const [file] = await h.files('later.txt');
    await h.service.share({ target: { presetId: h.demo!.randomPresetId }, paths: [file!] });
    await h.service.settled();
    await vi.waitFor(() => expect(h.notifications).toHaveLength(1));
    const launch = launchOf(h.notifications[0]!.options.toastXml);
    h.activateNotification({ type: 'click', arguments: launch });
    const [entry] = await h.service.listHistory({ limit: 1 });
    await vi.waitFor(() => expect(h.clipboard.written).toEqual([entry!.permalink]));
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
