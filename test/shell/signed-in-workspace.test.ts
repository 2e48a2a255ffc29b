// A workspace signed in with Slack, through the shell as the window calls it: when its sign-in
// runs out with a file waiting, the notification and the tray ask the person to sign in again
// (not for a token), and signing in again through the window clears that and sends the file.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SignInEnd, SignInResult } from '../../preload/contract';
import { freePort } from '../auth/sign-in-helpers';
import { consent } from '../reference-service/consent-client';
import { DEFAULT_CLIENT_ID } from '../reference-service/oauth-config';
import { eventFrom } from './fake-electron';
import { type ShellHarness, startShellHarness } from './shell-harness';

describe('a signed-in workspace in the shell', () => {
  let h: ShellHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('asks to sign in again when its sign-in runs out, and signing in again clears it', async () => {
    h = await startShellHarness({
      seed: false,
      signIn: {
        port: await freePort(),
        // The person approves in the browser, while the app waits.
        openBrowser: async (url) => void consent(url),
        // Refresh tokens that last 4 s: the sign-in runs out while a file waits.
        oauth: { accessTokenLifetimeSeconds: 1, refreshTokenLifetimeSeconds: 4 },
      },
    });
    h.shell.activate();
    const main = h.windows.open()[0]!;
    main.webContents.finishLoad();
    const request = { baseUrl: h.reference.url, clientId: DEFAULT_CLIENT_ID };
    const asked = (await h.call(main, 'signInWithSlack', request)) as SignInResult;
    // A new workspace: the window is asked who signed in, and only the answer keeps it.
    expect(asked).toEqual({
      ok: 'confirm',
      pendingId: expect.any(String),
      user: '@alice',
      team: 'Trayshare Reference',
    });
    const pendingId = asked.ok === 'confirm' ? asked.pendingId : '';
    const signed = (await h.call(main, 'confirmSignIn', pendingId, true)) as SignInEnd;
    expect(signed.ok).toBe(true);
    const workspaceId = signed.ok ? signed.workspaceId : '';

    await h.service.setPaused(true);
    const paths = await h.files('waits.txt');
    await h.service.share({ target: { workspaceId, channels: ['C0GENERAL'] }, paths });
    const runsOutBy = Date.now() + 5000;
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(runsOutBy), { timeout: 10_000 });
    h.reference.config.oauth.accessTokenLifetimeSeconds = 43_200;
    h.reference.config.oauth.refreshTokenLifetimeSeconds = 30 * 24 * 3600;
    await h.service.setPaused(false);

    const held = await vi.waitFor(
      () => {
        const note = h.notifications.find((n) => /again$/.test(n.options.title ?? ''));
        expect(note).toBeDefined();
        return note!;
      },
      { timeout: 15_000 },
    );
    expect(held.options.title).toMatch(/^Sign in to .+ again$/);
    expect(`${held.options.title} ${held.options.body}`).not.toMatch(/token/i);
    await vi.waitFor(() =>
      expect(h.tray.toolTip).toContain('a workspace needs you to sign in again'),
    );
    expect(h.tray.toolTip).not.toContain('new token');
    expect(h.reference.uploads()).toEqual([]);

    const again = (await h.call(main, 'signInWithSlack', {
      ...request,
      workspaceId,
    })) as SignInResult;
    expect(again.ok).toBe(true);
    await vi.waitFor(() => expect(h.tray.toolTip).not.toContain('sign in again'));
    await h.service.settled();
    expect(h.reference.uploads().map((u) => u.name)).toEqual(['waits.txt']);
  }, 60_000);

  it('takes the four sign-in methods only from its own page, with arguments as the contract says', async () => {
    const opened: string[] = [];
    h = await startShellHarness({
      seed: false,
      signIn: { port: await freePort(), openBrowser: async (url) => void opened.push(url) },
    });
    h.shell.activate();
    const main = h.windows.open()[0]!;
    main.webContents.finishLoad();
    const request = { baseUrl: h.reference.url, clientId: DEFAULT_CLIENT_ID };
    const foreign = eventFrom(main, { url: 'https://evil.example/steal' });
    await expect(h.ipc.invoke(foreign, 'trayshare:signInWithSlack', request)).rejects.toThrow(
      /Refused signInWithSlack/,
    );
    await expect(
      h.ipc.invoke(foreign, 'trayshare:confirmSignIn', 'any-sign-in', true),
    ).rejects.toThrow(/Refused confirmSignIn/);
    for (const [method, args] of [
      ['signInWithSlack', [{ ...request, token: 'xoxb-1' }]],
      ['signInWithSlack', [{ baseUrl: h.reference.url, clientId: '' }]],
      ['confirmSignIn', ['', true]],
      ['confirmSignIn', ['any-sign-in', 'yes']],
      ['confirmSignIn', ['any-sign-in']],
      ['cancelSignIn', ['now']],
      ['signOut', ['', {}]],
      ['signOut', ['W1', { evenIfWaiting: 'yes' }]],
    ] as const) {
      await expect(h.call(main, method, ...args)).rejects.toThrow(new RegExp(`Refused ${method}`));
    }
    // Nothing ran: no browser was opened and nothing was saved.
    expect(opened).toEqual([]);
    expect((await h.service.getSnapshot()).workspaces).toEqual([]);
  });
});
