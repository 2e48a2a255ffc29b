// What the app asks the keychain at start (main/core/secrets/keychain-check.ts), against the real
// Secret Service the suite runs in: a usable keychain says nothing; a keychain that refuses (the
// locked keyring of keychain.test.ts, injected here as the store's own error) is said once, in
// the keychain's words, and logged, and no token or made-up id reaches the log.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AppService } from '../../main/core/api';
import { keychainProblemAtStart } from '../../main/core/secrets/keychain-check';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import { KeychainError, type SecretStore } from '../../main/core/secrets/secret-store';
import { accessAccount } from '../../main/core/secrets/workspace-secrets';

const ACME = 'https://acme.example';
const snapshotWith = (ids: string[]) => ({
  getSnapshot: async () =>
    ({ workspaces: ids.map((id) => ({ id, baseUrl: ACME })) }) as unknown as Awaited<
      ReturnType<AppService['getSnapshot']>
    >,
});

describe('the keychain at start', () => {
  it('says nothing when the real keychain answers, with a workspace or without one', async () => {
    const secrets = createKeychainStore({ service: `Trayshare-test-${randomUUID()}` });
    const lines: string[] = [];
    await secrets.set(accessAccount({ id: 'T0ACME', baseUrl: ACME }), 'xoxb-at-start');
    expect(
      await keychainProblemAtStart(snapshotWith(['T0ACME']), secrets, (l) => lines.push(l)),
    ).toBeNull();
    expect(
      await keychainProblemAtStart(snapshotWith([]), secrets, (l) => lines.push(l)),
    ).toBeNull();
    expect(lines).toEqual([]);
    await secrets.delete(accessAccount({ id: 'T0ACME', baseUrl: ACME }));
  });

  it("says a locked keychain in the keychain's words, once, and logs it", async () => {
    const asked: string[] = [];
    const locked: Pick<SecretStore, 'get'> = {
      get: async (account) => {
        asked.push(account);
        throw new KeychainError('locked', 'The login keyring is locked. Unlock it and try again.');
      },
    };
    const lines: string[] = [];
    const said = await keychainProblemAtStart(snapshotWith(['T0ACME']), locked, (l) =>
      lines.push(l),
    );
    expect(said).toBe('The login keyring is locked. Unlock it and try again.');
    expect(asked).toEqual([accessAccount({ id: 'T0ACME', baseUrl: ACME })]);
    expect(lines).toEqual([
      'Keychain at start: The login keyring is locked. Unlock it and try again.',
    ]);
  });
});
