// What Sign in with Slack has handed out: consent requests waiting for a click, authorization
// codes, and rotating token pairs. Kept in memory for the service's life, like its uploads.
import { createHash, randomBytes } from 'node:crypto';
import type { TokenGrant } from './config';
import type { OAuthConfig, OAuthSigner } from './oauth-config';

/** Which consent page a request began at: the PKCE pair's or the user-only pair's. */
export type ConsentFlow = 'v2' | 'v2_user';

export interface ConsentRequest {
  flow: ConsentFlow;
  clientId: string;
  redirectUri: string;
  state: string;
  scopes: string[];
  codeChallenge?: string;
  team?: string;
}

interface IssuedCode {
  request: ConsentRequest;
  signer: OAuthSigner;
  expiresAt: number;
  used: boolean;
}

interface AccessToken {
  signer: OAuthSigner;
  scopes: string[];
  clientId: string;
  expiresAt: number;
  chain: Chain;
}

interface RefreshToken {
  chain: Chain;
  expiresAt: number;
  /** When it was exchanged, and what it gave: a replay within the grace period gets the same. */
  used?: { at: number; answer: TokenPair };
}

/** One sign-in's line of rotated tokens; revoking any of it ends all of it. */
interface Chain {
  signer: OAuthSigner;
  scopes: string[];
  clientId: string;
  revoked: boolean;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  signer: OAuthSigner;
  scopes: string[];
}

export type RefreshStatus = 'current' | 'used' | 'expired' | 'revoked' | 'unknown';

const secret = (prefix: string): string => `${prefix}${randomBytes(24).toString('base64url')}`;

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export class OAuthGrants {
  private readonly requests = new Map<string, ConsentRequest>();
  private readonly codes = new Map<string, IssuedCode>();
  private readonly access = new Map<string, AccessToken>();
  private readonly refresh = new Map<string, RefreshToken>();
  /** Test view: every exchange of a refresh token, in order (counting renewals). */
  renewals = 0;
  /** Test view: every code, verifier and token that passed through, for leak tests to grep for. */
  readonly secrets = new Set<string>();

  constructor(
    private readonly config: OAuthConfig,
    private readonly now: () => number,
  ) {}

  holdRequest(request: ConsentRequest): string {
    const id = randomBytes(12).toString('base64url');
    this.requests.set(id, request);
    return id;
  }

  takeRequest(id: string): ConsentRequest | undefined {
    const request = this.requests.get(id);
    this.requests.delete(id);
    return request;
  }

  issueCode(request: ConsentRequest, signer: OAuthSigner): string {
    // Slack's codes look like "4724469134.4644010092847.232b…" (oauth.v2.user.access docs).
    const code = `${Date.now()}.${randomBytes(20).toString('hex')}`;
    this.secrets.add(code);
    this.codes.set(code, {
      request,
      signer,
      expiresAt: this.now() + this.config.codeLifetimeSeconds * 1000,
      used: false,
    });
    return code;
  }

  /** Single use: any attempt spends the code, right or wrong (RFC 6749 §4.1.2). */
  spendCode(code: string): IssuedCode | undefined {
    const issued = this.codes.get(code);
    if (!issued || issued.used || issued.expiresAt <= this.now()) return undefined;
    issued.used = true;
    return issued;
  }

  startChain(signer: OAuthSigner, scopes: string[], clientId: string): TokenPair {
    return this.pair({ signer, scopes, clientId, revoked: false });
  }

  private pair(chain: Chain): TokenPair {
    // The shapes of Slack's rotating user tokens: xoxe.xoxp-… and xoxe-1-…
    const accessToken = secret('xoxe.xoxp-1-');
    const refreshToken = secret('xoxe-1-');
    this.secrets.add(accessToken).add(refreshToken);
    const now = this.now();
    this.access.set(accessToken, {
      signer: chain.signer,
      scopes: chain.scopes,
      clientId: chain.clientId,
      expiresAt: now + this.config.accessTokenLifetimeSeconds * 1000,
      chain,
    });
    this.refresh.set(refreshToken, {
      chain,
      expiresAt: now + this.config.refreshTokenLifetimeSeconds * 1000,
    });
    return {
      accessToken,
      refreshToken,
      expiresIn: Math.round(this.config.accessTokenLifetimeSeconds),
      signer: chain.signer,
      scopes: chain.scopes,
    };
  }

  /** A refresh token exchanged for a new pair, or why not. */
  rotate(
    refreshToken: string,
    clientId: string,
  ): TokenPair | 'invalid_refresh_token' | 'invalid_client_id' {
    const held = this.refresh.get(refreshToken);
    if (!held || held.chain.revoked || held.expiresAt <= this.now()) return 'invalid_refresh_token';
    if (held.chain.clientId !== clientId) return 'invalid_client_id';
    if (held.used) {
      const graceEnds = held.used.at + this.config.refreshReuseSeconds * 1000;
      return this.now() < graceEnds ? held.used.answer : 'invalid_refresh_token';
    }
    const answer = this.pair(held.chain);
    held.used = { at: this.now(), answer };
    this.renewals += 1;
    return answer;
  }

  /** What an API call with this token is, when Sign in with Slack issued it. */
  grantOf(token: string): { grant: TokenGrant } | { error: string } | undefined {
    const held = this.access.get(token);
    if (!held) return undefined;
    if (held.chain.revoked) return { error: 'token_revoked' };
    if (held.expiresAt <= this.now()) return { error: 'token_expired' };
    const { signer } = held;
    return {
      grant: {
        user: signer.user,
        name: signer.name,
        channels: signer.channels,
        scopes: held.scopes,
        team: signer.team,
      },
    };
  }

  /** auth.revoke with an access token: the whole sign-in ends, its refresh tokens too. */
  revoke(token: string): boolean {
    const held = this.access.get(token);
    if (!held) return false;
    held.chain.revoked = true;
    return true;
  }

  refreshStatus(refreshToken: string): RefreshStatus {
    const held = this.refresh.get(refreshToken);
    if (!held) return 'unknown';
    if (held.chain.revoked) return 'revoked';
    if (held.expiresAt <= this.now()) return 'expired';
    return held.used ? 'used' : 'current';
  }

  /** Test hook: every sign-in of this user is revoked, as an admin would in Slack. */
  revokeUser(user: string): void {
    for (const held of this.access.values()) {
      if (held.signer.user === user) held.chain.revoked = true;
    }
  }
}
