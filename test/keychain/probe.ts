// Child process for the keychain tests: runs one operation of the app's keychain store in
// whatever environment the test gave it (no D-Bus, no Secret Service, a locked keyring) and
// prints the outcome as one JSON line. The secret comes on standard input, never in argv.
import { text } from 'node:stream/consumers';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import { KeychainError } from '../../main/core/secrets/secret-store';

const [op, account, service] = process.argv.slice(2);
const store = createKeychainStore({ service: service || undefined });

async function run(): Promise<unknown> {
  if (!account) throw new Error('usage: probe.ts get|set|delete ACCOUNT [SERVICE]');
  if (op === 'set') {
    await store.set(account, (await text(process.stdin)).trim());
    return null;
  }
  if (op === 'get') return store.get(account);
  if (op === 'delete') return store.delete(account);
  throw new Error(`unknown operation ${op}`);
}

run().then(
  (value) => process.stdout.write(`${JSON.stringify({ ok: true, value })}\n`),
  (error: unknown) => {
    const out =
      error instanceof KeychainError
        ? { ok: false, problem: error.problem, message: error.message }
        : { ok: false, problem: 'not-a-keychain-error', message: String(error) };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  },
);
