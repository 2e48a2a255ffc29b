// Asking the Secret Service why keytar found nothing, against the real gnome-keyring that
// `npm test` starts on Linux (test/with-keyring.sh). The locked and no-default-keyring answers
// need a keyring in those states, which test/keychain/ sets up in their own D-Bus sessions.
import { describe, expect, it } from 'vitest';
import { createKeychainStore } from './keychain-store';
import { secretServiceState } from './secret-service-state';

// Linux only: the Secret Service is the Linux keychain (macOS and Windows have their own).
describe.skipIf(process.platform !== 'linux')(
  'the Secret Service asked through gdbus (Linux)',
  () => {
    it('an account nothing was stored for, in an unlocked keyring: absent', async () => {
      expect(await secretServiceState('Trayshare', 'no-such-workspace')).toBe('absent');
    });

    it('an item stored and unlocked: not locked, so keytar’s own answer stands (absent here)', async () => {
      const store = createKeychainStore({ service: 'trayshare-test-state' });
      await store.set('stored-workspace', 'xoxb-test-state');
      try {
        expect(await secretServiceState('trayshare-test-state', 'stored-workspace')).toBe('absent');
      } finally {
        await store.delete('stored-workspace');
      }
    });

    it('quotes and backslashes in the names are passed to gdbus as text, not as its syntax', async () => {
      expect(await secretServiceState("Tray'share", "it's\\'}, {'x': 'y")).toBe('absent');
    });

    it('without gdbus it cannot ask: unknown, and the caller keeps keytar’s answer', async () => {
      const path = process.env.PATH;
      process.env.PATH = '';
      try {
        expect(await secretServiceState('Trayshare', 'no-such-workspace')).toBe('unknown');
      } finally {
        process.env.PATH = path;
      }
    });
  },
);
