// Access tokens the gateway issues and checks: HS256 JWTs made with jose
// (https://github.com/panva/jose). Only HS256 is accepted; exp, iss, aud and sub are required.

import { AppError, unauthorized } from '@hs/service-kit';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

export type AccessTokenSettings = { jwtSecret: string; ttlSeconds: number; issuer: string; audience: string };
export type Identity = { userId: string; email: string };

const CLOCK_SKEW_SECONDS = 30;

export function createAccessTokens(settings: AccessTokenSettings) {
  const key = new TextEncoder().encode(settings.jwtSecret);
  return {
    ttlSeconds: settings.ttlSeconds,
    async issue(identity: Identity): Promise<string> {
      return new SignJWT({ email: identity.email })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(identity.userId)
        .setIssuer(settings.issuer)
        .setAudience(settings.audience)
        .setIssuedAt()
        .setExpirationTime(`${settings.ttlSeconds}s`)
        .sign(key);
    },
    async verify(token: string): Promise<Identity> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: settings.issuer,
          audience: settings.audience,
          requiredClaims: ['exp', 'sub', 'iat'],
        });
        if (typeof payload.sub !== 'string' || !payload.sub)
          throw unauthorized('Access token has no subject');
        // Only tokens this gateway could have issued: not from the future (beyond clock skew
        // between replicas) and never living longer than AUTH_TOKEN_TTL_SECONDS.
        const iat = payload.iat!;
        if (iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS) throw unauthorized('Access token is not valid yet');
        if (payload.exp! - iat > settings.ttlSeconds)
          throw unauthorized('Access token lives longer than this gateway issues them');
        return { userId: payload.sub, email: typeof payload.email === 'string' ? payload.email : '' };
      } catch (err) {
        if (err instanceof AppError) throw err;
        if (err instanceof joseErrors.JWTExpired) throw unauthorized('Access token has expired');
        throw unauthorized('Invalid access token');
      }
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
