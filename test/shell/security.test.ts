// What the shell enforces at the boundary with web content: hardened windows, IPC only from the
// app's own page and only with well-formed arguments, no token readable, https-only links,
// navigation/new windows/permissions denied, a strict CSP.

import { writeFile } from 'node:fs/promises';
import type { OnHeadersReceivedListenerDetails } from 'electron';
import { afterEach, describe, expect, it } from 'vitest';
import type { ShareResult } from '../../main/core/api';
import { isRendererUrl, type RendererLocation } from '../../main/electron/renderer-location';
import { contentSecurityPolicy, hardenSession } from '../../main/electron/session-security';
import { checkExternalUrl } from '../../main/electron/shell-api';
import { hardenedWebPreferences } from '../../main/electron/windows';
import { GIVEN_PATHS_CHANNEL, type MethodName, methodNames } from '../../preload/contract';
import { DEMO_TOKEN } from '../harness/seed';
import { eventFrom } from './fake-electron';
import { PRELOAD, RENDERER, type ShellHarness, startShellHarness } from './shell-harness';

const TOKEN = 'xoxb-secret-never-logged';
/** A 1x1 PNG, as a pasted image travels (base64). */
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('windows', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('creates every window with context isolation, sandbox, no Node, web security and the preload', async () => {
    h = await startShellHarness({ preferences: { dropWindowPinned: true } });
    h.shell.activate();
    h.shell.requestShare(await h.files('x.txt'));
    const created = h.windows.created;
    expect(created.map((w) => w.hash).sort()).toEqual(['drop', 'drop-window']);
    for (const window of created) {
      const prefs = window.options.webPreferences!;
      expect(prefs).toMatchObject({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        experimentalFeatures: false,
        preload: PRELOAD,
      });
      expect(prefs).toEqual(hardenedWebPreferences(PRELOAD));
      expect(window.webContents.url).toMatch(/^file:\/\/.*\/out\/renderer\/index\.html#/);
    }
  });

  it('denies navigation and new windows; https links open in the browser, others nowhere', async () => {
    h = await startShellHarness();
    h.shell.activate();
    const main = h.windows.open()[0]!;
    expect(main.webContents.tryNavigate('https://evil.example/')).toBe(false);
    expect(main.webContents.tryNavigate('file:///etc/passwd')).toBe(false);
    expect(main.webContents.openHandler!({ url: 'https://acme.example/files/1' })).toEqual({
      action: 'deny',
    });
    expect(main.webContents.openHandler!({ url: 'http://acme.example/' })).toEqual({
      action: 'deny',
    });
    expect(main.webContents.openHandler!({ url: 'javascript:alert(1)' })).toEqual({
      action: 'deny',
    });
    expect(h.opened).toEqual(['https://acme.example/files/1']);
  });
});

describe('IPC', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it("binds exactly the contract methods, and the preload's own report of dropped paths", async () => {
    h = await startShellHarness();
    expect([...h.ipc.handlers.keys()].sort()).toEqual(
      [...methodNames.map((m) => `trayshare:${m}`), GIVEN_PATHS_CHANNEL].sort(),
    );
  });

  it("shows the page an image only once the person handed it over, and only from the app's page", async () => {
    h = await startShellHarness();
    h.shell.activate();
    const main = h.windows.open()[0]!;
    const [image] = await h.files('dropped.png');
    await writeFile(image!, Buffer.from(PNG_1X1, 'base64'));
    expect(await h.call(main, 'readImage', image)).toBeNull();
    const foreign = eventFrom(main, { url: 'https://evil.example/steal' });
    await expect(h.ipc.invoke(foreign, GIVEN_PATHS_CHANNEL, [image])).rejects.toThrow(
      /Refused personGave/,
    );
    expect(await h.call(main, 'readImage', image)).toBeNull();
    await h.ipc.invoke(eventFrom(main, {}), GIVEN_PATHS_CHANNEL, [image]);
    expect(await h.call(main, 'readImage', image)).toMatchObject({ type: 'image/png' });
  });

  it('refuses a call from a page that is not the app, logging the origin but never the arguments', async () => {
    h = await startShellHarness();
    h.shell.activate();
    const main = h.windows.open()[0]!;
    const foreign = eventFrom(main, { url: 'https://evil.example/steal' });
    await expect(
      h.ipc.invoke(foreign, 'trayshare:setToken', h.demo!.workspaceId, TOKEN),
    ).rejects.toThrow(/did not come from Trayshare's own window/);
    expect(
      h.logs.some((l) => l.includes('Refused setToken') && l.includes('https://evil.example')),
    ).toBe(true);
    expect(h.logs.join('\n')).not.toContain(TOKEN);
    expect(h.logs.join('\n')).not.toContain('/steal');
  });

  it.each([
    ['another file page', { url: 'file:///tmp/evil/index.html' }],
    ['a frame inside the page', { parent: { url: 'file:///x' } }],
    ['a page with no frame left', null],
  ])('refuses %s', async (_label, frame) => {
    h = await startShellHarness();
    h.shell.activate();
    const main = h.windows.open()[0]!;
    const event =
      frame === null
        ? { sender: { id: main.webContents.id }, senderFrame: null }
        : eventFrom(main, frame);
    await expect(h.ipc.invoke(event, 'trayshare:getSnapshot')).rejects.toThrow(
      /Refused getSnapshot/,
    );
  });

  it('refuses the right page in a web contents the app did not create', async () => {
    h = await startShellHarness();
    const event = {
      sender: { id: 999_999 },
      senderFrame: {
        url: `file://${RENDERER.kind === 'file' ? RENDERER.indexPath : ''}#drop`,
        parent: null,
      },
    };
    await expect(h.ipc.invoke(event, 'trayshare:listQueue')).rejects.toThrow(/Refused listQueue/);
  });

  it('accepts the app page on any view', async () => {
    h = await startShellHarness();
    h.shell.activate();
    const main = h.windows.open()[0]!;
    await expect(h.call(main, 'listQueue')).resolves.toEqual([]);
  });

  it.each([
    ['setPaused', ['yes'], /argument 0: Invalid input: expected boolean/],
    ['setPaused', [], /Refused setPaused/],
    ['share', [{ target: { presetId: 'p' }, paths: [] }], /argument 0\.paths/],
    ['share', [{ target: { presetId: 'p' }, paths: ['/a'], extra: 1 }], /Refused share/],
    ['openExternal', [42], /Refused openExternal/],
    ['describePaths', [{ paths: '/a' }], /argument 0\.paths/],
    ['describePaths', [{ paths: ['/a'], workspaceId: '' }], /Refused describePaths/],
    ['setToken', ['w', 'x'.repeat(10_001)], /Refused setToken/],
    ['prepareShare', ['w', 0], /Refused prepareShare/],
    ['prepareShare', ['w', 2.5], /Refused prepareShare/],
    ['prepareShare', [{ id: 'w' }, 3], /Refused prepareShare/],
    ['saveEditedImage', [new Uint8Array([1, 2, 3, 4, 5]), '/a'], /not a PNG or JPEG image/],
    ['saveEditedImage', ['iVBORw0KGgo=', '/a'], /Refused saveEditedImage/],
    [
      'saveEditedImage',
      [
        (() => {
          const big = new Uint8Array(64 * 1024 ** 2 + 1);
          big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
          return big;
        })(),
        '/a',
      ],
      /larger than/,
    ],
  ])('refuses %s with malformed arguments %#', async (method, args, message) => {
    h = await startShellHarness();
    h.shell.activate();
    const main = h.windows.open()[0]!;
    const before = await h.service.getSnapshot();
    await expect(h.call(main, method, ...args)).rejects.toThrow(message);
    expect(await h.service.getSnapshot()).toEqual(before);
    expect(h.logs.at(-1)).toBe(`Refused ${method}: malformed arguments.`);
  });

  it('never answers with a token, whatever is called: every contract method, its answer or refusal, and every event sent', async () => {
    h = await startShellHarness();
    h.shell.activate();
    const main = h.windows.open()[0]!;
    const [x] = await h.files('x.txt');
    const { workspaceId: ws, designPresetId: preset } = h.demo!;
    let itemId = '';
    // Every method of the contract, typed as a Record so a new method cannot be left out. Each is
    // called with arguments it accepts; read-only calls come before the ones that change things.
    const calls: Record<MethodName, () => unknown[]> = {
      getSnapshot: () => [],
      listQueue: () => [],
      listHistory: () => [{}],
      testConnection: () => [ws],
      listConversations: () => [ws, { refresh: true, wait: true }],
      checkChannels: () => ['C0GENERAL, #design-review'],
      describePaths: () => [{ paths: [x], workspaceId: ws }],
      prepareShare: () => [ws, 3],
      probeProtocol: () => [h.reference.url, ''],
      desktopNotes: () => [],
      keepsDropWindowOnTop: () => [],
      takePendingPaths: () => [],
      takeSetupLink: () => [],
      readSetupLink: () => [
        `trayshare://setup?base_url=${encodeURIComponent(h.reference.url)}&client_id=1.2&name=Acme`,
      ],
      readCapture: () => [x],
      readImage: () => [x],
      getUpdates: () => [],
      checkUpdatesNow: () => [],
      cancelRestart: () => [],
      restartToUpdate: () => [],
      pickFiles: () => [],
      copyText: () => ['hello'],
      openExternal: () => ['https://acme.example/files/1'],
      openLogsFolder: () => [],
      copyDiagnostics: () => [],
      share: () => [{ target: { workspaceId: ws, channels: ['C0GENERAL'] }, paths: [x] }],
      cancelItem: () => [itemId],
      retryItem: () => [itemId],
      sendToOthers: () => [itemId],
      changeDestination: () => [itemId, ['C0RANDOM']],
      clearFinished: () => [],
      setPaused: () => [false],
      savePastedImage: () => [PNG_1X1],
      saveEditedImage: () => [new Uint8Array(Buffer.from(PNG_1X1, 'base64')), x],
      discardCapture: () => [x],
      addPreset: () => [
        { name: 'Extra', workspaceId: ws, channels: [{ id: 'C0GENERAL' }], comment: '' },
      ],
      updatePreset: () => [preset, { comment: 'changed' }],
      reorderPresets: () => [[preset]],
      setDefaultPreset: () => [preset],
      removePreset: () => [preset],
      setPreferences: () => [{ concurrency: 2 }],
      addWorkspace: () => [{ name: 'Other', baseUrl: h.reference.url }],
      updateWorkspace: () => [ws, { name: 'Acme renamed' }],
      saveToken: () => [ws, DEMO_TOKEN],
      setToken: () => [ws, DEMO_TOKEN],
      signInWithSlack: () => [{ workspaceId: ws, baseUrl: h.reference.url, clientId: '1.2' }],
      confirmSignIn: () => ['no-such-sign-in', false],
      cancelSignIn: () => [],
      signOut: () => [ws, { evenIfWaiting: true }],
      clearToken: () => [ws],
      removeWorkspace: () => [ws],
    };
    expect(Object.keys(calls).sort()).toEqual([...methodNames].sort());
    const answers: unknown[] = [];
    for (const [method, args] of Object.entries(calls)) {
      // A sign-in waits for the browser: cancelled by the next call, its answer is kept.
      const pending = h.call(main, method, ...args()).then(
        (answer) => ({ method, answer }),
        (error: Error) => ({ method, refused: error.message }),
      );
      if (method === 'signInWithSlack') answers.push(pending);
      else {
        const settled = await pending;
        if ('answer' in settled && method === 'share')
          itemId = (settled.answer as ShareResult).items[0]!.id;
        answers.push(settled);
      }
    }
    const text = JSON.stringify(await Promise.all(answers));
    expect(text).toContain('"method":"removeWorkspace"');
    expect(text).not.toContain(DEMO_TOKEN);
    for (const window of h.windows.created)
      expect(JSON.stringify(window.webContents.sent)).not.toContain(DEMO_TOKEN);
    // copyText and copyDiagnostics answer through the clipboard.
    expect(h.clipboard.written.join('\n')).not.toContain(DEMO_TOKEN);
    expect(h.clipboard.written.length).toBeGreaterThanOrEqual(2);
  });
});

describe('links', () => {
  it.each([
    'http://acme.example/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,hi',
    'smb://server/share',
    'https://user:pw@acme.example/',
    'not a url',
  ])('refuses to open %s', (url) => {
    expect(checkExternalUrl(url).ok).toBe(false);
  });

  it('opens https links, through the IPC method too', async () => {
    expect(checkExternalUrl('https://acme.example/files/1')).toEqual({
      ok: true,
      url: 'https://acme.example/files/1',
    });
    const h = await startShellHarness({ seed: false, launchedAtLogin: false });
    try {
      const main = h.windows.open()[0]!;
      await expect(h.call(main, 'openExternal', 'file:///etc/passwd')).rejects.toThrow(
        /Only https links/,
      );
      await expect(h.call(main, 'openExternal', 'javascript:alert(1)')).rejects.toThrow(
        /Only https links/,
      );
      await h.call(main, 'openExternal', 'https://acme.example/files/1');
      expect(h.opened).toEqual(['https://acme.example/files/1']);
    } finally {
      await h.close();
    }
  });
});

describe('session', () => {
  function fakeSession() {
    let request: ((wc: unknown, p: string, cb: (granted: boolean) => void) => void) | undefined;
    let check: ((wc: unknown, p: string) => boolean) | undefined;
    let headers:
      | ((
          d: OnHeadersReceivedListenerDetails,
          cb: (r: { responseHeaders?: Record<string, string | string[]> }) => void,
        ) => void)
      | undefined;
    return {
      session: {
        setPermissionRequestHandler: (h: typeof request) => {
          request = h;
        },
        setPermissionCheckHandler: (h: typeof check) => {
          check = h;
        },
        webRequest: {
          onHeadersReceived: (h: typeof headers) => {
            headers = h;
          },
        },
      },
      request: (p: string) => new Promise<boolean>((r) => request!({}, p, r)),
      check: (p: string) => check!({}, p),
      headers: (details: Partial<OnHeadersReceivedListenerDetails>) =>
        new Promise<Record<string, string | string[]> | undefined>((r) =>
          headers!(details as OnHeadersReceivedListenerDetails, (res) => r(res.responseHeaders)),
        ),
    };
  }

  it('denies every permission request and check', async () => {
    const s = fakeSession();
    hardenSession(s.session, RENDERER, () => undefined);
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      expect(await s.request(p)).toBe(false);
      expect(s.check(p)).toBe(false);
    }
  });

  it('sets a strict CSP on documents, replacing any weaker one', async () => {
    const s = fakeSession();
    const dev = { kind: 'dev-server', url: 'http://localhost:5173/' } as const;
    hardenSession(s.session, dev, () => undefined);
    const headers = await s.headers({
      resourceType: 'mainFrame',
      url: 'http://localhost:5173/',
      responseHeaders: {
        'content-security-policy': ['default-src *'],
        'Content-Type': ['text/html'],
      },
    });
    expect(headers).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': [contentSecurityPolicy(dev)],
    });
    expect(await s.headers({ resourceType: 'xhr', url: 'http://127.0.0.1/api' })).toBeUndefined();
  });

  it('forbids inline scripts, remote code, plugins, framing and form posts', () => {
    const csp = contentSecurityPolicy(RENDERER);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    for (const d of [
      "object-src 'none'",
      "frame-ancestors 'none'",
      "form-action 'none'",
      "base-uri 'none'",
    ]) {
      expect(csp).toContain(d);
    }
  });
});

describe('which pages count as the app', () => {
  it('matches the renderer file on any view, and nothing else', () => {
    const page = 'file:///opt/Trayshare/resources/app.asar/out/renderer/index.html';
    expect(isRendererUrl(RENDERER, `${page}#queue`)).toBe(true);
    expect(isRendererUrl(RENDERER, page)).toBe(true);
    expect(
      isRendererUrl(RENDERER, 'file:///opt/Trayshare/resources/app.asar/out/renderer/other.html'),
    ).toBe(false);
    expect(
      isRendererUrl(RENDERER, 'https://opt/Trayshare/resources/app.asar/out/renderer/index.html'),
    ).toBe(false);
    const dev = { kind: 'dev-server', url: 'http://localhost:5173/' } as const;
    expect(isRendererUrl(dev, 'http://localhost:5173/#share')).toBe(true);
    expect(isRendererUrl(dev, 'http://localhost:5174/')).toBe(false);
    expect(isRendererUrl(dev, undefined)).toBe(false);
  });
});

describe('which pages count as the app on Windows', () => {
  // Node spells the checkout's drive as the cwd had it (c:\…); Chromium's frame URL always
  // has it upper-case (file:///C:/…). Both are the same page.
  const at = (indexPath: string) => ({ kind: 'file', indexPath }) as const;
  const lowerDrive = at('c:\\Users\\Ann\\trayshare\\out\\renderer\\index.html');
  const page = (path: string) => `file:///C:/Users/Ann/trayshare/out/renderer/${path}`;
  const onWindows = (location: RendererLocation, url: string) =>
    isRendererUrl(location, url, 'win32');

  it('accepts the page whatever the case of the drive letter and folders', () => {
    expect(onWindows(lowerDrive, page('index.html#queue'))).toBe(true);
    expect(onWindows(lowerDrive, 'file:///c:/users/ann/Trayshare/out/renderer/index.html')).toBe(
      true,
    );
    const spaced = at(
      'C:\\Program Files\\Trayshare\\resources\\app.asar\\out\\renderer\\index.html',
    );
    expect(
      onWindows(
        spaced,
        'file:///C:/Program%20Files/Trayshare/resources/app.asar/out/renderer/index.html',
      ),
    ).toBe(true);
    const unc = at('\\\\server\\apps\\Trayshare\\out\\renderer\\index.html');
    expect(onWindows(unc, 'file://server/apps/Trayshare/out/renderer/index.html')).toBe(true);
  });

  it('still refuses other pages, other drives and other hosts', () => {
    expect(onWindows(lowerDrive, 'file:///D:/Users/Ann/trayshare/out/renderer/index.html')).toBe(
      false,
    );
    expect(onWindows(lowerDrive, page('evil.html'))).toBe(false);
    expect(
      onWindows(lowerDrive, 'file://evil/C:/Users/Ann/trayshare/out/renderer/index.html'),
    ).toBe(false);
    expect(onWindows(lowerDrive, page('%E0%A4%A'))).toBe(false);
  });

  it('keeps case significant on Linux', () => {
    const linux = at('/home/ann/trayshare/out/renderer/index.html');
    expect(
      isRendererUrl(linux, 'file:///home/ann/trayshare/out/renderer/index.html', 'linux'),
    ).toBe(true);
    expect(
      isRendererUrl(linux, 'file:///home/Ann/trayshare/out/renderer/index.html', 'linux'),
    ).toBe(false);
  });
});
