// PKCE (RFC 7636) for Sign in with Slack: a fresh verifier per attempt from the OS's random
// source, and its S256 challenge, base64url(SHA-256(ASCII(verifier))) without padding (§4.2).
import { createHash, randomBytes } from 'node:crypto';

export interface PkcePair {
  verifier: string;
  challenge: string;
}

/** S256: the challenge sent to the consent page for this verifier. */
export function challengeOf(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** 32 random bytes as base64url: 43 characters, the least §4.1 allows and as strong as it asks. */
export function newPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: challengeOf(verifier) };
}

/** The `state` that ties the callback to this attempt (RFC 6749 §10.12). */
export function newState(): string {
  return randomBytes(24).toString('base64url');
}
