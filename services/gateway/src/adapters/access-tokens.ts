// Access tokens the gateway issues and checks: HS256 JWTs made with jose
// (https://github.com/panva/jose). Only HS256 is accepted; exp, iss, aud and sub are required.

import { AppError, unauthorized } from '@hs/service-kit';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { createRecentCache } from './recent-cache.ts';
import { type SessionCounts, signedOutSince } from './user-directory.ts';

export type AccessTokenSettings = { jwtSecret: string; ttlSeconds: number; issuer: string; audience: string };
/**
 * Who signed in. `formerUserId`: the id the same person had before (an OIDC subject longer than
 * ids may be, used whole until it was shortened); a user known by it keeps it.
 */
export type Identity = {
  userId: string;
  email: string;
  formerUserId?: string;
  /** The user's sign-out count the token was issued under (user-directory.ts); 0 when absent. */
  sessions?: number;
};

const CLOCK_SKEW_SECONDS = 30;

/**
 * The one reading of the clock a token's `iat` and `exp` are both computed from: jose reads it
 * again for a relative `setExpirationTime('900s')`, and across a second's boundary that made
 * `exp - iat` one over the TTL, which verification refuses (a fresh sign-in answered 401).
 */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
// A client sends the same token on every request until it expires: once it has passed every
// check below it is remembered until its `exp`, so later requests skip the WebCrypto round trip.
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * `sessions`: the users' current sign-out counts. A token issued before its user signed out
 * everywhere is refused like an expired one, at once on the gateway that signed them out and
 * within MEMBERSHIP_CACHE_MS on the others.
 */
export function createAccessTokens(settings: AccessTokenSettings, sessions: SessionCounts) {
  const key = new TextEncoder().encode(settings.jwtSecret);
  // Imported once: jose would import raw key bytes again on every verification.
  let verifyKey: ReturnType<typeof crypto.subtle.importKey> | undefined;
  const preparedKey = () => {
    verifyKey ??= crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    return verifyKey;
  };
  const verified = createRecentCache<Identity>(VERIFIED_TOKENS_KEPT);
  return {
    ttlSeconds: settings.ttlSeconds,
    async issue(identity: Identity): Promise<string> {
      const issuedAt = nowSeconds();
      return new SignJWT({ email: identity.email, sv: identity.sessions ?? 0 })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(identity.userId)
        .setIssuer(settings.issuer)
        .setAudience(settings.audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + settings.ttlSeconds)
        .sign(key);
    },
    async verify(token: string): Promise<Identity> {
      const identity = verified.get(token) ?? (await verifySignature(token));
      await refuseSignedOut(sessions, identity);
      return identity;
    },
  };

  async function verifySignature(token: string): Promise<Identity> {
    try {
      const { payload } = await jwtVerify(token, await preparedKey(), {
        algorithms: ['HS256'],
        issuer: settings.issuer,
        audience: settings.audience,
        requiredClaims: ['exp', 'sub', 'iat'],
      });
      if (typeof payload.sub !== 'string' || !payload.sub) throw unauthorized('Access token has no subject');
      const foreign = notIssuedHere(payload, settings.ttlSeconds);
      if (foreign === 'future') throw unauthorized('Access token is not valid yet');
      if (foreign === 'too long')
        throw unauthorized('Access token lives longer than this gateway issues them');
      const identity = {
        userId: payload.sub,
        email: typeof payload.email === 'string' ? payload.email : '',
        sessions: sessionsClaim(payload.sv),
      };
      if (typeof payload.exp === 'number') verified.set(token, identity, payload.exp * 1000);
      return identity;
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof joseErrors.JWTExpired) throw unauthorized('Access token has expired');
      throw unauthorized('Invalid access token');
    }
  }
}

/**
 * Why a signed token (with `iat` and `exp`) is not one this gateway could have issued: from the
 * future (beyond clock skew between replicas), or living longer than the TTL it issues them with.
 * Null when it could be. Access, stream and voice tokens are all held to it.
 */
export function notIssuedHere(
  payload: { iat?: number | undefined; exp?: number | undefined },
  ttlSeconds: number,
): 'future' | 'too long' | null {
  const iat = payload.iat ?? Number.NaN;
  const exp = payload.exp ?? Number.NaN;
  if (!(iat <= Date.now() / 1000 + CLOCK_SKEW_SECONDS)) return 'future';
  if (!(exp - iat <= ttlSeconds)) return 'too long';
  return null;
}

/** A token's sign-out count claim; tokens issued before sign-out existed carry none (0). */
export const sessionsClaim = (sv: unknown): number =>
  typeof sv === 'number' && Number.isSafeInteger(sv) && sv >= 0 ? sv : 0;

/** 401 for a token issued before its user signed out everywhere. */
export async function refuseSignedOut(sessions: SessionCounts, identity: Identity): Promise<void> {
  if (await signedOutSince(sessions, identity.userId, identity.sessions ?? 0))
    throw unauthorized('Signed out: sign in again');
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
