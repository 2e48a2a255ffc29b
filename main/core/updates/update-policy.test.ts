// The policy on its own: when it asks, what it says. The feed itself is test/updates/.
import { describe, expect, it } from 'vitest';
import { CHECK_EVERY_MS, type Timers, UpdatePolicy, type UpdateView } from './update-policy';

function setUp(opts: { automatic?: boolean; updatesItself?: boolean } = {}) {
  const checks: string[] = [];
  const views: UpdateView[] = [];
  const intervals: { run: () => void; ms: number; cleared: boolean }[] = [];
  const timers: Timers = {
    setInterval: (run, ms) => {
      const handle = { run, ms, cleared: false };
      intervals.push(handle);
      return handle;
    },
    clearInterval: (handle) => {
      (handle as { cleared: boolean }).cleared = true;
    },
  };
  let installs = 0;
  const policy = new UpdatePolicy({
    source:
      opts.updatesItself === false
        ? { updatesItself: false, reason: 'Installed from the deb package: update it with apt.' }
        : { updatesItself: true },
    automatic: opts.automatic ?? true,
    check: async () => {
      checks.push('check');
    },
    install: () => {
      installs++;
    },
    queue: { settled: async () => undefined, running: () => 0 },
    timers,
    log: { info: () => undefined, warn: () => undefined },
    onChange: (view) => views.push(view),
  });
  return { policy, checks, views, intervals, installs: () => installs };
}

describe('update checks', () => {
  it('checks at start and then every 6 hours', async () => {
    const { policy, checks, intervals } = setUp();
    policy.start();
    expect(checks).toHaveLength(1);
    expect(intervals).toHaveLength(1);
    expect(intervals[0]!.ms).toBe(6 * 60 * 60 * 1000);
    expect(CHECK_EVERY_MS).toBe(21_600_000);
    intervals[0]!.run();
    intervals[0]!.run();
    expect(checks).toHaveLength(3);
  });

  it('with the preference off, never checks by itself; turning it on checks and schedules', () => {
    const { policy, checks, intervals } = setUp({ automatic: false });
    policy.start();
    expect(checks).toEqual([]);
    expect(intervals).toEqual([]);
    policy.setAutomatic(true);
    expect(checks).toHaveLength(1);
    expect(intervals).toHaveLength(1);
    policy.setAutomatic(false);
    expect(intervals[0]!.cleared).toBe(true);
    expect(policy.view()).toMatchObject({ automatic: false, canCheck: true });
  });

  it('a build that updates elsewhere never checks, even on "Check now", and says why', async () => {
    const { policy, checks, intervals } = setUp({ updatesItself: false });
    policy.start();
    policy.setAutomatic(false);
    policy.setAutomatic(true);
    await policy.checkNow();
    expect(checks).toEqual([]);
    expect(intervals).toEqual([]);
    expect(policy.view()).toEqual({
      status: 'unavailable',
      automatic: true,
      canCheck: false,
      message: 'Installed from the deb package: update it with apt.',
    });
  });

  it('keeps a downloaded update on offer when a later check fails', () => {
    const { policy } = setUp();
    policy.found('1.2.0');
    policy.downloaded('1.2.0');
    policy.failed(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect(policy.view()).toMatchObject({
      status: 'ready',
      restartLabel: 'Restart to update to 1.2.0',
    });
  });

  it('"Restart to update" without a downloaded update does nothing', async () => {
    const { policy, installs } = setUp();
    expect((await policy.restartToUpdate()).status).toBe('idle');
    expect(installs()).toBe(0);
  });

  it('says how many uploads the restart waits for, counts down, and installs once at rest', async () => {
    let running = 3;
    let atRest: () => void = () => undefined;
    let installs = 0;
    const views: UpdateView[] = [];
    const policy = new UpdatePolicy({
      source: { updatesItself: true },
      automatic: false,
      check: async () => undefined,
      install: () => {
        installs++;
      },
      queue: {
        settled: () => new Promise<void>((resolve) => (atRest = resolve)),
        running: () => running,
      },
      log: { info: () => undefined, warn: () => undefined },
      onChange: (view) => views.push(view),
    });
    policy.downloaded('1.2.0');
    expect(await policy.restartToUpdate()).toMatchObject({
      status: 'restarting',
      message: 'Restarting when the 3 uploads finish…',
      waitingFor: 3,
      canCheck: false,
    });
    running = 1;
    policy.queueChanged();
    expect(views.at(-1)?.message).toBe('Restarting when the upload finishes…');
    // A second click while it waits changes nothing.
    await policy.restartToUpdate();
    running = 0;
    atRest();
    await new Promise((resolve) => setImmediate(resolve));
    expect(installs).toBe(1);
  });

  it('an installer that fails leaves the update on offer and the app running', async () => {
    const { policy } = setUp();
    policy.downloaded('1.2.0');
    await policy.restartToUpdate();
    await new Promise((resolve) => setImmediate(resolve));
    policy.failed(new Error('spawn EACCES'));
    expect(policy.view()).toMatchObject({
      status: 'ready',
      restartLabel: 'Restart to update to 1.2.0',
      canCheck: true,
    });
  });
});
