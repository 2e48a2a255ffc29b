// A team's trayshare://setup link as the OS hands it to the running shell: on the command line
// of a first or second launch (Windows, Linux) or as macOS's open-url. A good one opens
// Settings and reaches the page (as an event, or taken by a page still loading); a malformed
// one is refused whole with a notification that says why, and nothing of it reaches the page.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { type HandOffApp, listenForHandOff } from '../../main/electron/hand-off';
import { checkSignInUrl } from '../../main/electron/shell-api';
import { setupLinkFor } from '../../main/portable/setup-link';
import { type ShellHarness, startShellHarness } from './shell-harness';

class FakeApp extends EventEmitter {
  secondInstance(argv: string[], cwd: string, data?: unknown) {
    this.emit('second-instance', {}, argv, cwd, data);
  }
  openUrl(url: string) {
    let prevented = false;
    this.emit('open-url', { preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

const team = { baseUrl: 'https://slack.com', clientId: '1234567890.1234567890123', name: 'Acme' };
const link = setupLinkFor(team);

function listen(h: ShellHarness, app: FakeApp, argv: string[] = []) {
  const activations: number[] = [];
  const handOff = listenForHandOff(app as unknown as HandOffApp, {
    argv,
    cwd: '/',
    onActivate: () => activations.push(1),
  });
  handOff.deliverTo((paths) => h.shell.requestShare(paths));
  handOff.deliverLinksTo((raw) => h.shell.openSetupLink(raw));
  return activations;
}

describe('set-up links from the OS', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('a second launch with the link (Windows, Linux) opens the window and hands it to the page', async () => {
    h = await startShellHarness();
    h.windows.autoLoad = false;
    const app = new FakeApp();
    const activations = listen(h, app);
    app.secondInstance(['C:\\Trayshare\\Trayshare.exe', link], 'C:\\', {
      argv: ['C:\\Trayshare\\Trayshare.exe', link],
      cwd: 'C:\\',
    });
    const main = h.windows.open()[0];
    expect(main).toBeDefined();
    // Not a bare activation, and no share sheet.
    expect(activations).toEqual([]);
    expect(h.windows.byHash('share')).toBeUndefined();
    main!.webContents.finishLoad();
    expect(await h.call(main!, 'takeSetupLink')).toEqual(team);
    expect(await h.call(main!, 'takeSetupLink')).toBeNull();
  });

  it('the link that started the app waits for the desktop app, then for the page', async () => {
    h = await startShellHarness();
    h.windows.autoLoad = false;
    listen(h, new FakeApp(), ['/opt/Trayshare/trayshare', link]);
    const main = h.windows.open()[0]!;
    main.webContents.finishLoad();
    expect(await h.call(main, 'takeSetupLink')).toEqual(team);
  });

  it("macOS open-url reaches an open page as an event; a desktop entry's --share does not share it", async () => {
    h = await startShellHarness({ platform: 'darwin' });
    const app = new FakeApp();
    listen(h, app);
    h.shell.activate();
    const main = h.windows.open()[0]!;
    main.webContents.finishLoad();
    expect(app.openUrl(link)).toBe(true);
    expect(main.webContents.eventsSent('setup-link')).toEqual([team]);
    expect(await h.call(main, 'takeSetupLink')).toBeNull();
    // A desktop entry that takes files and the scheme may put the link after --share.
    app.secondInstance(['trayshare', '--share', link], '/home/ana');
    expect(main.webContents.eventsSent('share-requested')).toEqual([]);
    expect(main.webContents.eventsSent('setup-link')).toEqual([team, team]);
  });

  it.each([
    ['a token in it', `${link}&token=xoxb-123`, 'it carries token'],
    [
      'plain http to a remote service',
      link.replace('https', 'http'),
      'its service address is refused',
    ],
    ['another action', link.replace('//setup', '//share'), 'it does not ask to set up a workspace'],
  ])(
    'refuses a link with %s: a notification says why, the page gets nothing',
    async (_what, raw, why) => {
      h = await startShellHarness();
      const app = new FakeApp();
      listen(h, app);
      h.shell.activate();
      const main = h.windows.open()[0]!;
      main.webContents.finishLoad();
      app.secondInstance(['trayshare', raw], '/');
      const note = h.notifications.find((n) => n.options.title === 'Set-up link refused');
      expect(note?.options.body).toContain(why);
      expect(main.webContents.eventsSent('setup-link')).toEqual([]);
      expect(await h.call(main, 'takeSetupLink')).toBeNull();
      // The link itself is not written to the log: it names the team's service.
      expect(h.logs.join('\n')).not.toContain('1234567890.1234567890123');
    },
  );
});

describe('a set-up link pasted in the window', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('is checked in main like one from the OS: fields back, or the refusal', async () => {
    h = await startShellHarness();
    h.shell.activate();
    const main = h.windows.open()[0]!;
    main.webContents.finishLoad();
    expect(await h.call(main, 'readSetupLink', ` ${link} `)).toEqual(team);
    await expect(h.call(main, 'readSetupLink', `${link}&token=xoxb-1`)).rejects.toThrow(
      /This set-up link cannot be used: it carries token/,
    );
    // The argument is schema-checked first, as for every method.
    await expect(h.call(main, 'readSetupLink', 'x'.repeat(5000))).rejects.toThrow(
      /Refused readSetupLink/,
    );
  });
});

describe('where Sign in with Slack may send the browser', () => {
  it('https anywhere, plain http only to this machine, never with credentials', () => {
    expect(checkSignInUrl('https://slack.com/oauth/v2_user/authorize?client_id=1.2')).toEqual({
      ok: true,
      url: 'https://slack.com/oauth/v2_user/authorize?client_id=1.2',
    });
    for (const local of ['http://127.0.0.1:8080/a', 'http://localhost:9/a', 'http://[::1]:9/a']) {
      expect(checkSignInUrl(local).ok).toBe(true);
    }
    for (const refused of [
      'http://slack.com/oauth',
      'http://127.0.0.1.evil.example/a',
      'http://me:pw@127.0.0.1/a',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'trayshare://setup',
    ]) {
      expect(checkSignInUrl(refused).ok, refused).toBe(false);
    }
  });
});
