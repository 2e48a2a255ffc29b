// token_expired is "refused before processing" (service contract, "Sign-in"): nothing was
// posted, so a signed-in workspace's attempt is sent once more, and only once, after renewing
// the access token. token_revoked is refused before processing too; renewing then finds out
// whether the whole sign-in was ended (an admin, or signing out elsewhere: "Sign in again") or
// only the access token. Any other answer, or a second refusal, stands as it came.

import type { Workspace } from '../model';
import { RenewalError } from '../renewal-error';
import { KeychainError } from '../secrets/secret-store';
import type { AttemptResult } from '../upload/attempt';
import { keychainFailure } from './refusals';

const expired = (r: AttemptResult): boolean =>
  r.kind === 'failed' && (r.reason.code === 'token_expired' || r.reason.code === 'token_revoked');

export async function retriedAfterRenewal<R extends AttemptResult | AttemptResult[]>(
  source: { renew?: (workspace: Workspace, staleToken: string) => Promise<string> },
  as: { workspace: Workspace; token: string },
  send: (token: string) => Promise<R>,
): Promise<R> {
  const first = await send(as.token);
  const results: AttemptResult[] = Array.isArray(first) ? first : [first];
  if (!source.renew || !results.some(expired)) return first;
  let token: string;
  try {
    token = await source.renew(as.workspace, as.token);
  } catch (error) {
    const reason =
      error instanceof RenewalError
        ? error.reason
        : error instanceof KeychainError
          ? keychainFailure(error)
          : undefined;
    if (!reason) throw error;
    const failed: AttemptResult = { kind: 'failed', reason };
    return (Array.isArray(first) ? first.map((r) => (expired(r) ? failed : r)) : failed) as R;
  }
  return send(token);
}
