import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { deriveKey } from '../../shared/secrets';

// Pinned: a token naming any other algorithm (none, RS256 with our key as a public key ...) is refused.
const ALG = 'HS256';
const ISSUER = 'mailroom';
const AUDIENCE = 'mailroom:session';

export interface SessionClaims {
  readonly userId: string;
  /** The account's session epoch when issued; a password change bumps it. */
  readonly epoch: number;
}

export type SessionCheck =
  | { readonly ok: true; readonly claims: SessionClaims }
  | { readonly ok: false; readonly reason: 'expired' | 'invalid' };

export class SessionSigner {
  private readonly key: Buffer;

  constructor(
    secretKey: string,
    private readonly ttlS: number,
  ) {
    this.key = deriveKey(secretKey, 'session-jwt');
  }

  async issue(claims: SessionClaims): Promise<{ token: string; expiresAt: string }> {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ ep: claims.epoch })
      .setProtectedHeader({ alg: ALG, typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + this.ttlS)
      .sign(this.key);
    return { token, expiresAt: new Date((now + this.ttlS) * 1000).toISOString() };
  }

  async verify(token: string): Promise<SessionCheck> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALG],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.ep !== 'number')
        return { ok: false, reason: 'invalid' };
      return { ok: true, claims: { userId: payload.sub, epoch: payload.ep } };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
      return { ok: false, reason: 'invalid' };
    }
  }
}

/** Three base64url segments: what a JWT looks like before we spend a verification on it. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}
