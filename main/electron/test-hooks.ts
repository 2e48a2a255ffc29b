// A hook for the real-Electron tests (test/e2e): Playwright's `electronApp.evaluate` runs in the
// main process but cannot reach the tray, which Electron gives no API to list. With
// TRAYSHARE_TEST_HOOKS=1 in an unpackaged run, the tray and its current context menu are kept on
// `globalThis.__trayshareTest` so a test can read the menu and click its items as a person would.
// Nothing else is exposed (no service, no settings, no token), and a packaged app never has it:
// its fuses also refuse the --inspect/--remote-debugging attach that `evaluate` needs.

const TEST_HOOKS_ENV = 'TRAYSHARE_TEST_HOOKS';

export interface TestHooks<Tray, Menu> {
  /** The tray icon, once created. */
  tray: Tray | null;
  /** The tray's context menu as last set (items carry the ids of tray-menu.ts). */
  menu: Menu | null;
}

export function testHooksEnabled(env: NodeJS.ProcessEnv, isPackaged: boolean): boolean {
  return !isPackaged && env[TEST_HOOKS_ENV] === '1';
}

/** Installs the hooks on globalThis when enabled; returns them, or undefined. */
export function installTestHooks<Tray, Menu>(
  env: NodeJS.ProcessEnv,
  isPackaged: boolean,
  global: Record<string, unknown> = globalThis as unknown as Record<string, unknown>,
): TestHooks<Tray, Menu> | undefined {
  if (!testHooksEnabled(env, isPackaged)) return undefined;
  const hooks: TestHooks<Tray, Menu> = { tray: null, menu: null };
  global.__trayshareTest = hooks;
  return hooks;
}
