import { describe, expect, it } from 'vitest';
import { installTestHooks, testHooksEnabled } from './test-hooks';

describe('the e2e test hook', () => {
  it('is there only in an unpackaged run with TRAYSHARE_TEST_HOOKS=1', () => {
    expect(testHooksEnabled({ TRAYSHARE_TEST_HOOKS: '1' }, false)).toBe(true);
    expect(testHooksEnabled({ TRAYSHARE_TEST_HOOKS: '1' }, true)).toBe(false);
    expect(testHooksEnabled({ TRAYSHARE_TEST_HOOKS: 'true' }, false)).toBe(false);
    expect(testHooksEnabled({}, false)).toBe(false);
  });

  it('puts only the tray and its menu on globalThis, and nothing when off', () => {
    const global: Record<string, unknown> = {};
    expect(installTestHooks({}, false, global)).toBeUndefined();
    expect(installTestHooks({ TRAYSHARE_TEST_HOOKS: '1' }, true, global)).toBeUndefined();
    expect(global).toEqual({});
    const hooks = installTestHooks({ TRAYSHARE_TEST_HOOKS: '1' }, false, global);
    expect(global).toEqual({ __trayshareTest: { tray: null, menu: null } });
    expect(global.__trayshareTest).toBe(hooks);
  });
});
