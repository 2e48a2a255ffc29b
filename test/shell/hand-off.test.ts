// File-manager hand-off: `<exe> --share <paths…>` launches (Windows starts one per selected
// file) and macOS open-file become one share sheet, and sharing it makes one share.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { HandOffApp } from '../../main/electron/hand-off';
import { listenForHandOff } from '../../main/electron/hand-off';
import type { ShareResult } from '../../preload/contract';
import { type ShellHarness, startShellHarness } from './shell-harness';

/** Timers the test fires by hand: the batch window closes when the test says so. */
function manualTimers() {
  const pending = new Map<number, () => void>();
  let next = 1;
  return {
    setTimeout: (fn: () => void) => {
      const id = next++;
      pending.set(id, fn);
      return id;
    },
    clearTimeout: (id: unknown) => {
      pending.delete(id as number);
    },
    fireAll() {
      const fns = [...pending.values()];
      pending.clear();
      for (const fn of fns) fn();
    },
    get armed() {
      return pending.size;
    },
  };
}

class FakeApp extends EventEmitter {
  secondInstance(argv: string[], cwd: string, data?: unknown) {
    this.emit('second-instance', {}, argv, cwd, data);
  }
  openFile(path: string) {
    let prevented = false;
    this.emit('open-file', { preventDefault: () => (prevented = true) }, path);
    return prevented;
  }
}

const exe = 'C:\\Program Files\\Trayshare\\Trayshare.exe';

describe('hand-off batching', () => {
  it('gathers several second-instance launches into one batch, in order, without duplicates', () => {
    const app = new FakeApp();
    const timers = manualTimers();
    const batches: string[][] = [];
    const handOff = listenForHandOff(app as unknown as HandOffApp, {
      argv: ['/opt/Trayshare/trayshare'],
      cwd: '/home/ana',
      onActivate: () => {
        throw new Error('not an activation');
      },
      batch: timers,
    });
    handOff.deliverTo((paths) => batches.push(paths));
    // Windows: one process per selected file; Chromium appends its own switches.
    app.secondInstance(
      ['/opt/t', '--share', '/home/ana/a.png', '--original-process-start-time=1'],
      '/',
    );
    app.secondInstance(['/opt/t', '--share', 'b.png'], '/home/ana/Pictures');
    app.secondInstance(['/opt/t', '--share', '/home/ana/a.png'], '/');
    expect(batches).toEqual([]);
    timers.fireAll();
    expect(batches).toEqual([['/home/ana/a.png', '/home/ana/Pictures/b.png']]);

    // A later launch starts a new batch.
    app.secondInstance(['/opt/t', '--share', '/home/ana/c.png'], '/');
    timers.fireAll();
    expect(batches).toHaveLength(2);
    expect(batches[1]).toEqual(['/home/ana/c.png']);
  });

  it("prefers the second instance's own argv (additional data) over Chromium's reordered copy", () => {
    const app = new FakeApp();
    const timers = manualTimers();
    const batches: string[][] = [];
    listenForHandOff(app as unknown as HandOffApp, {
      argv: [exe],
      cwd: 'C:\\',
      onActivate: () => undefined,
      batch: timers,
    }).deliverTo((paths) => batches.push(paths));
    app.secondInstance(['--allow-file-access-from-files', exe], '/', {
      argv: [exe, '--share', 'report.pdf'],
      cwd: '/home/ana/Documents',
    });
    timers.fireAll();
    expect(batches).toEqual([['/home/ana/Documents/report.pdf']]);
    // After `--`, an argument that looks like a switch is a file name.
    app.secondInstance([], '/', {
      argv: ['/opt/t', '--share', '--', '--odd name.txt'],
      cwd: '/srv',
    });
    timers.fireAll();
    expect(batches[1]).toEqual(['/srv/--odd name.txt']);
  });

  it('holds batches (and its own argv) until the shell is ready, and takes macOS open-file', () => {
    const app = new FakeApp();
    const timers = manualTimers();
    const activations: number[] = [];
    const handOff = listenForHandOff(app as unknown as HandOffApp, {
      argv: ['/Applications/Trayshare.app/Contents/MacOS/Trayshare', '--share', 'first.txt'],
      cwd: '/Users/ana',
      onActivate: () => activations.push(1),
      batch: timers,
    });
    expect(app.openFile('/Users/ana/second.txt')).toBe(true);
    timers.fireAll();
    const batches: string[][] = [];
    handOff.deliverTo((paths) => batches.push(paths));
    expect(batches).toEqual([['/Users/ana/first.txt', '/Users/ana/second.txt']]);
    // A second launch with nothing to share means "show me the app".
    app.secondInstance(['/opt/t'], '/');
    expect(activations).toEqual([1]);
  });

  it('closes a busy batch after its longest wait, even while paths keep coming', () => {
    const app = new FakeApp();
    let now = 0;
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const waits: number[] = [];
      const batches: string[][] = [];
      listenForHandOff(app as unknown as HandOffApp, {
        argv: [],
        cwd: '/',
        onActivate: () => undefined,
        batch: {
          quietMs: 500,
          maxWaitMs: 1200,
          setTimeout: (_fn, ms) => waits.push(ms),
          clearTimeout: () => undefined,
        },
      }).deliverTo((p) => batches.push(p));
      for (let i = 0; i < 4; i++) {
        app.secondInstance(['x', '--share', `/f${i}`], '/');
        now += 400;
      }
      // 500 ms of quiet each time, until the 1200 ms cap: 400 ms left at 800, none at 1200.
      expect(waits).toEqual([500, 500, 400, 0]);
    } finally {
      Date.now = realNow;
    }
  });
});

describe('hand-off into the running shell', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('opens one share sheet with every handed-over path, and sharing it makes one share', async () => {
    h = await startShellHarness();
    const app = new FakeApp();
    const timers = manualTimers();
    const paths = await h.files('one.txt', 'two words.txt', 'drei-ü.txt');
    h.windows.autoLoad = false;
    listenForHandOff(app as unknown as HandOffApp, {
      argv: [],
      cwd: '/',
      onActivate: () => h.shell.activate(),
      batch: timers,
    }).deliverTo((batch) => h.shell.requestShare(batch));
    for (const path of paths) app.secondInstance(['trayshare', '--share', path], '/');
    timers.fireAll();

    // The main window opens on the share sheet; its page takes the paths when it starts.
    const main = h.windows.byHash('share');
    expect(main).toBeDefined();
    expect(h.windows.open()).toHaveLength(1);
    main!.webContents.finishLoad();
    expect(await h.call(main!, 'takePendingPaths')).toEqual(paths);
    expect(await h.call(main!, 'takePendingPaths')).toEqual([]);

    const result = (await h.call(main!, 'share', {
      target: { presetId: h.demo!.randomPresetId },
      paths,
    })) as ShareResult;
    expect(result.refused).toEqual([]);
    expect(new Set(result.items.map((i) => i.shareId))).toEqual(new Set([result.shareId]));
    await h.service.settled();
    expect(
      h.reference
        .uploads()
        .map((u) => u.name)
        .sort(),
    ).toEqual(['drei-ü.txt', 'one.txt', 'two words.txt'].sort());
    expect(h.reference.uploads().every((u) => u.channels.join() === 'C0RANDOM')).toBe(true);
  });

  it('sends later hand-offs to the open page as an event', async () => {
    h = await startShellHarness();
    const [a, b] = await h.files('a.txt', 'b.txt');
    h.shell.requestShare([a!]);
    const main = h.windows.byHash('share')!;
    expect(main.webContents.eventsSent('share-requested')).toEqual([{ paths: [a] }]);
    h.shell.requestShare([b!]);
    expect(main.webContents.eventsSent('share-requested')).toEqual([
      { paths: [a] },
      { paths: [b] },
    ]);
    expect(await h.call(main, 'takePendingPaths')).toEqual([]);
    expect(h.windows.open()).toHaveLength(1);
  });
});
