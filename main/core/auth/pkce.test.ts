import { describe, expect, it } from 'vitest';
import { challengeOf, newPkcePair, newState } from './pkce';

describe('PKCE', () => {
  it("gives RFC 7636 Appendix B's challenge for its verifier", () => {
    expect(challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes a new verifier each time, 43 characters of the unreserved set, with its challenge', () => {
    const a = newPkcePair();
    const b = newPkcePair();
    expect(a.verifier).not.toBe(b.verifier);
    expect(a.verifier).toMatch(/^[A-Za-z0-9._~-]{43}$/);
    expect(a.challenge).toBe(challengeOf(a.verifier));
    expect(newState()).not.toBe(newState());
  });
});
