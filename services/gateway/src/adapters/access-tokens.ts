// Access tokens the gateway issues and checks: HS256 JWTs made with jose
// (https://github.com/panva/jose). Only HS256 is accepted; exp, iss, aud and sub are required.

import { unauthorized } from '@hs/service-kit';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

export type AccessTokenSettings = { jwtSecret: string; ttlSeconds: number; issuer: string; audience: string };
export type Identity = { userId: string; email: string };

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
        return { userId: payload.sub, email: typeof payload.email === 'string' ? payload.email : '' };
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) throw unauthorized('Access token has expired');
        throw unauthorized('Invalid access token');
      }
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
