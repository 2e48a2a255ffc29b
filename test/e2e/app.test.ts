// The built app in the real Electron, driven by Playwright's Electron support (_electron.launch),
// against the reference service on 127.0.0.1 and the real OS keychain. Each test that stands
// alone gets its own app (its own user-data folder and reference service), so one failure does
// not take the next test down: the start with its tray, the drop window from the tray menu
// (macOS: a drop on the tray icon), the token saved into the keychain, on Windows a screenshot
// with the capture overlay (Capture…, Enter) into the share sheet. Steps that build on each
// other share one app, in order: a `--share PATH` from a second instance reaches the share sheet
// → the share lands once → the log and the keychain hold what they should; and pause → queue a
// share → Quit ends every process → a restart finds the queue intact and delivers it.
// Needs the Electron binary (skipped here with the reason printed, see electron-binary.ts), a
// display (xvfb-run on Linux CI) and a keychain (test/with-keyring.sh's on Linux, a temporary one
// on macOS CI). The app is `npm run build`'s out/ started from this checkout: a packaged app's
// fuses refuse the debugger attach Playwright needs, so the package itself is checked in
// test/packaging. `npm test` runs this file in a Vitest pass of its own, after the others.
// The token is saved by the app itself (through its window's API, as Settings does) and read
// back inside the app: macOS lets only the app that made a keychain item read it without a
// dialog, and a dialog would hang a runner.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KEYCHAIN_SERVICE } from '../../main/core/secrets/secret-store';
import { accessAccount } from '../../main/core/secrets/workspace-secrets';
import { filesUnder } from '../cli/run-cli';
import { type Demo, prepareDemo } from '../demo/launch-demo';
import { createMemorySecretStore } from '../harness/memory-secrets';
import { DEMO_TOKEN } from '../harness/seed';
import { electronBinary } from './electron-binary';

const root = fileURLToPath(new URL('../..', import.meta.url));
const binary = electronBinary();
if (binary.skip) {
  if (process.env.TRAYSHARE_E2E === 'required') {
    throw new Error(`test/e2e must run here (TRAYSHARE_E2E=required), but ${binary.skip}`);
  }
  process.stderr.write(`test/e2e skipped: ${binary.skip}\n`);
}

// Settles in seconds on a runner; a step that never comes fails well inside the test's limit.
const STEP = { timeout: 20_000 };

interface TestHooksView {
  menu: { getMenuItemById(id: string): { click(): void; label: string } | null } | null;
  tray: unknown;
}

// The app under test and its world: set by openApp() for one test or one story of steps.
let demo: Demo;
let app: ElectronApplication;
let output = '';

async function launch(): Promise<ElectronApplication> {
  const launched = await _electron.launch({
    executablePath: binary.path,
    args: demo.electronArgs,
    cwd: root,
    env: { ...process.env, TRAYSHARE_TEST_HOOKS: '1', ELECTRON_ENABLE_LOGGING: '1' },
    // Playwright adds --no-sandbox on Linux unless this is set (its electron.ts, launch());
    // CI makes chrome-sandbox setuid root so the sandbox works under Ubuntu 24.04's AppArmor.
    chromiumSandbox: true,
  });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  launched.process().stdout?.on('data', collect);
  launched.process().stderr?.on('data', collect);
  return launched;
}

/** The tray's menu item ids and labels, as a person would see them (test hook, test-hooks.ts). */
function trayItem(id: string): Promise<string | null> {
  return app.evaluate((_electron, itemId) => {
    const hooks = (globalThis as unknown as { __trayshareTest?: TestHooksView }).__trayshareTest;
    return hooks?.menu?.getMenuItemById(itemId)?.label ?? null;
  }, id);
}

/** The labels under the tray's "Recent uploads" (delivered files). */
function recentLabels(): Promise<string[]> {
  return app.evaluate(() => {
    const hooks = (globalThis as unknown as { __trayshareTest?: TestHooksView }).__trayshareTest;
    const recent = hooks?.menu?.getMenuItemById('recent') as unknown as {
      submenu?: { items: { label: string }[] };
    } | null;
    return recent?.submenu?.items.map((item) => item.label) ?? [];
  });
}

function clickTray(id: string): Promise<void> {
  return app.evaluate((_electron, itemId) => {
    const hooks = (globalThis as unknown as { __trayshareTest?: TestHooksView }).__trayshareTest;
    const item = hooks?.menu?.getMenuItemById(itemId);
    if (!item) throw new Error(`no tray menu item ${itemId}`);
    item.click();
  }, id);
}

/** The demo workspace's access-token entry (main/core/secrets/workspace-secrets.ts names it). */
const demoAccount = () => accessAccount({ id: demo.ids.workspaceId, baseUrl: demo.reference.url });

/** keytar inside the running app (the keychain entry's creator), for reading or deleting it. */
function appKeychain(op: 'get' | 'delete', account: string): Promise<string | boolean | null> {
  return app.evaluate(
    async ({ app: electronApp }, args) => {
      const { createRequire } = process.getBuiltinModule('node:module');
      const keytar = createRequire(`${electronApp.getAppPath()}/package.json`)('keytar') as {
        getPassword(service: string, account: string): Promise<string | null>;
        deletePassword(service: string, account: string): Promise<boolean>;
      };
      return args.op === 'get'
        ? keytar.getPassword(args.service, args.account)
        : keytar.deletePassword(args.service, args.account);
    },
    { op, service: KEYCHAIN_SERVICE, account },
  );
}

/** The window whose page is at `#hash` (the main window has a view hash or none). */
async function windowAt(test: (url: string) => boolean): Promise<Page> {
  await expect.poll(() => app.windows().some((w) => test(w.url())), STEP).toBe(true);
  return app.windows().find((w) => test(w.url())) as Page;
}
const mainWindow = () =>
  windowAt((url) => url.includes('index.html') && !url.endsWith('#drop-window'));

/** `<electron> <app> --user-data-dir=… --share PATH`, as a file manager starts it. */
function secondInstance(path: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary.path as string, [...demo.electronArgs, '--share', path], {
      cwd: root,
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

const uploadsNamed = (name: string) => demo.reference.uploads().filter((u) => u.name === name);

/** A new demo world (workspace and presets; the token is saved by the app) and its app. */
async function openApp(): Promise<void> {
  demo = await prepareDemo({ secrets: createMemorySecretStore() });
  output = '';
  app = await launch();
}

async function closeApp(): Promise<void> {
  if (app && demo) await appKeychain('delete', demoAccount()).catch(() => undefined);
  await app?.close().catch(() => undefined);
  await demo?.cleanup();
}

/** A file next to the user-data folder, as a person's own file would be. */
async function personFile(name: string, text: string): Promise<string> {
  const path = join(demo.userDataDir, '..', name);
  await writeFile(path, text);
  return path;
}

/** Saves the token through the window's API, as Settings does. */
async function saveToken(): Promise<void> {
  await clickTray('open');
  const page = await mainWindow();
  await page.locator('main[aria-busy="false"]').waitFor(STEP);
  await page.evaluate(
    ([id, token]) =>
      (
        window as unknown as {
          trayshare: { setToken(id: string, token: string): Promise<void> };
        }
      ).trayshare.setToken(id as string, token as string),
    [demo.ids.workspaceId, DEMO_TOKEN],
  );
}

/** Whether the app holds a live tray icon (test-hooks.ts keeps the one it made). */
function trayIsUp(): Promise<boolean> {
  return app.evaluate(() => {
    const hooks = (globalThis as unknown as { __trayshareTest?: TestHooksView }).__trayshareTest;
    const tray = hooks?.tray as { isDestroyed(): boolean } | null | undefined;
    return Boolean(tray) && tray?.isDestroyed() === false;
  });
}

const skipped = binary.skip ? ` (skipped: ${binary.skip})` : '';
// A step waits at most STEP; a test has a few.
const LIMIT = { timeout: 90_000 };

describe.skipIf(Boolean(binary.skip))(
  `the app in the real Electron, one app per test${skipped}`,
  LIMIT,
  () => {
    beforeEach(openApp, 60_000);
    afterEach(closeApp, 60_000);

    it('starts, with its tray and every action in the tray menu', async () => {
      await expect.poll(trayIsUp, STEP).toBe(true);
      await expect.poll(() => trayItem('quit'), STEP).toBe('Quit Trayshare');
      expect(await trayItem('open')).toBe('Open Trayshare');
      expect(await trayItem('drop-window')).toBe(
        process.platform === 'darwin' ? null : 'Drop window',
      );
      // The real Electron of package.json's devDependencies, running this app's version.
      expect(await app.evaluate(() => process.versions.electron)).toMatch(/^45\./);
      const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
      expect(await app.evaluate(({ app: electronApp }) => electronApp.getVersion())).toBe(version);
    });

    it('saves the token into the OS keychain, through the window as Settings does', async () => {
      await saveToken();
      expect(await appKeychain('get', demoAccount())).toBe(DEMO_TOKEN);
    });

    // macOS's tray takes drops itself, so its menu has no drop window (tray-menu.ts).
    it.skipIf(process.platform === 'darwin')(
      'opens the drop window from the tray menu',
      async () => {
        await expect.poll(trayIsUp, STEP).toBe(true);
        await clickTray('drop-window');
        const drop = await windowAt((url) => url.endsWith('#drop-window'));
        await drop.locator('main[aria-busy="false"]').waitFor(STEP);
        expect(await drop.evaluate(() => document.visibilityState)).toBe('visible');
      },
    );

    // Windows' capture UI is Trayshare's own overlay (main/electron/capture-overlay.ts), so a test
    // can drive it as a person does: Capture… in the tray, then Enter on the overlay. macOS's
    // screencapture -i and the Linux portal's dialog are the system's own and wait for a person;
    // there the units and the test portal (test/renderer/capture.test.ts) stand in.
    it.runIf(process.platform === 'win32')(
      'takes a screenshot with the overlay: Capture…, Enter, and it is in the share sheet',
      async () => {
        await saveToken();
        await expect.poll(() => trayItem('capture'), STEP).toBe('Capture…');
        const displays = await app.evaluate(({ screen }) => screen.getAllDisplays().length);
        await clickTray('capture');
        const overlays = () => app.windows().filter((w) => w.url().endsWith('overlay.html'));
        await expect.poll(() => overlays().length, STEP).toBe(displays);
        const overlay = overlays()[0] as Page;
        await overlay.locator('canvas[data-drawn="true"]').waitFor(STEP);
        await overlay.keyboard.press('Enter');
        const page = await mainWindow();
        await page.getByRole('heading', { name: 'Share 1 file' }).waitFor(STEP);
        expect(await page.locator('.file-list__name').textContent()).toMatch(
          /^Screenshot \d{4}-\d\d-\d\d at \d\d\.\d\d\.\d\d( \(\d+\))?\.png$/,
        );
        expect(await page.getByText('Screenshot of the screen').isVisible()).toBe(true);
        await page.locator('canvas.capture-preview__thumb[data-drawn="true"]').waitFor(STEP);
        await expect.poll(() => overlays().length, STEP).toBe(0);
      },
    );

    it.runIf(process.platform === 'darwin')(
      'takes files dropped on the tray icon (macOS, where the tray menu has no drop window)',
      async () => {
        await saveToken();
        expect(await trayItem('drop-window')).toBeNull();
        const dropped = await personFile('dropped-on-tray.txt', 'dropped on the menu-bar icon\n');
        // What macOS sends when files are dropped on the status item.
        await app.evaluate((_electron, path) => {
          const hooks = (globalThis as unknown as { __trayshareTest?: TestHooksView })
            .__trayshareTest;
          const tray = hooks?.tray as { emit(event: string, ...args: unknown[]): void } | null;
          if (!tray) throw new Error('no tray');
          tray.emit('drop-files', {}, [path]);
        }, dropped);
        const page = await mainWindow();
        await page.getByRole('heading', { name: 'Share 1 file' }).waitFor(STEP);
        expect(await page.locator('.file-list__name').allTextContents()).toEqual([
          'dropped-on-tray.txt',
        ]);
        await page.getByRole('button', { name: 'Share', exact: true }).click();
        await expect.poll(() => uploadsNamed('dropped-on-tray.txt').length, STEP).toBe(1);
      },
    );
  },
);

// Each step builds on the one before: one app for all of them.
describe.skipIf(Boolean(binary.skip))(`a share from the file manager${skipped}`, LIMIT, () => {
  let shared = '';
  beforeAll(async () => {
    await openApp();
    await saveToken();
    shared = await personFile('first-share.txt', 'shared from the file manager\n');
  }, 60_000);
  afterAll(closeApp, 60_000);

  it('shows a file handed over with --share by a second instance in the share sheet', async () => {
    // The second instance hands its paths to the running one and quits.
    expect(await secondInstance(shared)).toBe(0);
    const page = await mainWindow();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor(STEP);
    expect(await page.locator('.file-list__name').allTextContents()).toEqual(['first-share.txt']);
  });

  it('delivers the share exactly once to the reference service', async () => {
    const page = await mainWindow();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await expect.poll(() => uploadsNamed('first-share.txt').length, STEP).toBe(1);
    // Delivered as far as the app knows: it is under the tray's "Recent uploads".
    await expect
      .poll(
        async () => (await recentLabels()).filter((l) => l.startsWith('first-share.txt → ')),
        STEP,
      )
      .toHaveLength(1);
    const bytes = await readFile(shared);
    expect(uploadsNamed('first-share.txt')).toEqual([
      expect.objectContaining({
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        channels: ['C0DESIGN', 'C0GENERAL'],
      }),
    ]);
  });

  it("writes its log in the OS's logs folder: versions, the share's outcome, no token or name", async () => {
    const logs = await app.evaluate(({ app: electronApp }) => electronApp.getPath('logs'));
    const log = await readFile(join(logs, 'trayshare.log'), 'utf8');
    expect(log).toMatch(
      /\[info\] +Trayshare \S+ started: Electron \d+\.\d+\.\d+, Chrome \d+\.[\d.]+, Node \d+\.\d+\.\d+, /,
    );
    expect(log).toMatch(/Share [0-9a-f-]{8} via files\.upload, 1 file to 2 channels: 1 delivered/);
    for (const secret of [DEMO_TOKEN, 'first-share']) {
      expect(log).not.toContain(secret);
    }
  });

  it('keeps the token in the OS keychain and nowhere else: no file, no log line', async () => {
    expect(await appKeychain('get', demoAccount())).toBe(DEMO_TOKEN);
    for (const file of await filesUnder(demo.userDataDir)) {
      expect((await readFile(file)).includes(DEMO_TOKEN), file).toBe(false);
    }
    expect(output).not.toContain(DEMO_TOKEN);
  });
});

// Quit, then start again: the second step needs the first's queue.
describe.skipIf(Boolean(binary.skip))(`quitting and starting again${skipped}`, LIMIT, () => {
  let queued = '';
  beforeAll(async () => {
    await openApp();
    await saveToken();
    queued = await personFile('queued-share.txt', 'queued before quitting\n');
  }, 60_000);
  afterAll(closeApp, 60_000);

  it('ends every one of its processes on Quit', async () => {
    // Pause first and queue a share, for the restart below.
    await clickTray('pause');
    await expect.poll(() => trayItem('pause'), STEP).toBe('Resume uploads');
    expect(await secondInstance(queued)).toBe(0);
    const page = await mainWindow();
    await page.getByRole('heading', { name: 'Share 1 file' }).waitFor(STEP);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('navigation').getByRole('button', { name: 'Queue' }).click();
    await page.getByText('queued-share.txt').first().waitFor(STEP);
    expect(uploadsNamed('queued-share.txt')).toEqual([]);

    const pids = await app.evaluate(({ app: electronApp }) =>
      electronApp.getAppMetrics().map((m) => m.pid),
    );
    expect(pids.length).toBeGreaterThan(1);
    const exited = new Promise<number | null>((resolve) =>
      app.process().once('exit', (code) => resolve(code)),
    );
    await clickTray('quit').catch(() => undefined); // the process may go before it answers
    expect(await exited).toBe(0);
    const alive = () =>
      pids.filter((pid) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      });
    await expect.poll(alive, STEP).toEqual([]);
  });

  it('starts again with the queue intact, and delivers the queued share once: one post, still one when the app calls it delivered', async () => {
    app = await launch();
    await expect.poll(trayIsUp, STEP).toBe(true);
    await expect.poll(() => trayItem('pause'), STEP).toBe('Resume uploads');
    // macOS opens no window on a later start: open it as a person would.
    await clickTray('open');
    const page = await mainWindow();
    await page.getByRole('navigation').getByRole('button', { name: 'Queue' }).click();
    await page.getByText('queued-share.txt').first().waitFor(STEP);
    expect(uploadsNamed('queued-share.txt')).toEqual([]);
    await clickTray('pause');
    await expect.poll(() => uploadsNamed('queued-share.txt').length, STEP).toBe(1);
    // Once, counted again after the app has settled the share, not only at the first upload: it
    // is under "Recent uploads" (delivered as far as the app knows), so a second post made by a
    // retry or a repeated resume would be in the service's record by then.
    await expect
      .poll(
        async () => (await recentLabels()).filter((l) => l.startsWith('queued-share.txt → ')),
        STEP,
      )
      .toHaveLength(1);
    expect(uploadsNamed('queued-share.txt')).toHaveLength(1);
  });
});
