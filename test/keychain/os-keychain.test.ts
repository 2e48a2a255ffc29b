// The app's secret store against this OS's own keychain, on every OS: the macOS Keychain, the
// Windows Credential Manager, or the Secret Service (test/with-keyring.sh's throw-away
// gnome-keyring on Linux). keytar is the real one; the service name is the test's own, so the
// person's Trayshare entries are never touched, and the entry is removed afterwards.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';

const service = `Trayshare test ${randomUUID()}`;
const store = createKeychainStore({ service });
const account = `workspace-${randomUUID()}`;

afterAll(async () => {
  await store.delete(account).catch(() => false);
});

describe(`the OS keychain through keytar (${process.platform})`, () => {
  it('stores, replaces, reads back and removes a token', async () => {
    expect(await store.get(account)).toBeNull();
    await store.set(account, 'xoxb-first-token');
    expect(await store.get(account)).toBe('xoxb-first-token');
    await store.set(account, 'xoxb-second-token');
    expect(await store.get(account)).toBe('xoxb-second-token');
    expect(await store.delete(account)).toBe(true);
    expect(await store.get(account)).toBeNull();
    expect(await store.delete(account)).toBe(false);
  });

  it('keeps entries of different services apart', async () => {
    const other = createKeychainStore({ service: `${service} other` });
    await store.set(account, 'xoxb-mine');
    try {
      expect(await other.get(account)).toBeNull();
    } finally {
      await store.delete(account);
    }
  });
});
