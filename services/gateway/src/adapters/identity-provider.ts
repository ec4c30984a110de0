// Turns a login idToken into an identity. Development mode derives a stable user from the
// string itself; OIDC mode verifies the token against the issuer's JWKS with jose
// (createRemoteJWKSet caches keys), using OIDC discovery when no JWKS URL is configured.
import { createHash } from 'node:crypto';
import { httpRequest as request, unauthorized, upstreamError, validationError } from '@hs/service-kit';
import { isValidDocId } from '@hs/store';
import { createRemoteJWKSet, type JWTVerifyGetKey, errors as joseErrors, jwtVerify } from 'jose';

import type { Identity } from './access-tokens.ts';

export interface IdentityProvider {
  identify(idToken: string): Promise<Identity>;
}

/** The same idToken always yields the same user: ids derive from the normalised email. */
export function devIdentity(idToken: string): Identity {
  const email = (idToken.includes('@') ? idToken : `${idToken}@dev.local`).trim().toLowerCase();
  const digest = createHash('sha256').update(email).digest('base64url').slice(0, 22);
  return { userId: `usr_${digest}`, email };
}

export function createDevIdentityProvider(): IdentityProvider {
  return {
    async identify(idToken) {
      // A bound on the body, as the empty idToken's (decisions: non-empty, up to 256 characters).
      if (idToken.length > 256)
        throw validationError([
          {
            loc: ['body', 'idToken'],
            msg: 'Too big: a development idToken has at most 256 characters',
            type: 'too_big',
          },
        ]);
      // Blank ones would all be one shared user, "@dev.local".
      if (!idToken.trim()) throw unauthorized('Development idToken must not be blank');
      return devIdentity(idToken);
    },
  };
}

/** The longest id every contract takes for a member (paths, audit actors, owners). */
const MAX_USER_ID_LENGTH = 128;

/** Printable ASCII without spaces: an id that travels in paths and headers as it is. */
const PLAIN_ID = /^[\x21-\x7e]+$/;

/**
 * The user id of an OIDC subject: the `sub` itself, or for one that cannot be an id as it is (OIDC
 * allows 255 characters of any kind: longer than ids may be, a `/`, a space, `..`) a stable
 * digest of it, so the member can still be named in paths, headers and audit entries, stored on
 * every backend, and managed like anyone else.
 */
export function oidcUserId(sub: string): string {
  if (sub.length <= MAX_USER_ID_LENGTH && PLAIN_ID.test(sub) && isValidDocId(sub)) return sub;
  return `oidc_${createHash('sha256').update(sub).digest('base64url')}`;
}

export function createOidcIdentityProvider(settings: {
  issuer: string;
  audience: string;
  jwksUrl?: string | undefined;
  /** The provider verifies every address and does not say so (no `email_verified` claim). */
  emailsAlwaysVerified?: boolean;
  timeoutMs: number;
}): IdentityProvider {
  let jwks: JWTVerifyGetKey | undefined;
  const keys = async (): Promise<JWTVerifyGetKey> => {
    if (jwks) return jwks;
    let url = settings.jwksUrl;
    if (!url) {
      try {
        const res = await request(`${settings.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, {
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
        const doc = (await res.body.json()) as { jwks_uri?: string };
        if (res.statusCode !== 200 || !doc.jwks_uri) throw new Error(`discovery answered ${res.statusCode}`);
        url = doc.jwks_uri;
      } catch (err) {
        throw upstreamError('The sign-in provider could not be reached', err);
      }
    }
    jwks = createRemoteJWKSet(new URL(url), { timeoutDuration: settings.timeoutMs });
    return jwks;
  };
  return {
    async identify(idToken) {
      const getKey = await keys();
      try {
        const { payload } = await jwtVerify(idToken, getKey, {
          issuer: settings.issuer,
          audience: settings.audience,
          algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
          requiredClaims: ['exp', 'sub'],
        });
        // An address the provider has not said it verified is anyone's to type in: taken as the
        // user's, a guardian adding "parent@example.com" could add whoever claimed it first. Only
        // `email_verified: true` (some providers send the string "true") makes it the user's,
        // unless the operator says the provider verifies every address without the claim.
        const claim = payload.email_verified;
        const verified =
          claim === true || claim === 'true' || (claim === undefined && !!settings.emailsAlwaysVerified);
        const email = typeof payload.email === 'string' && verified ? payload.email : '';
        const sub = String(payload.sub);
        const userId = oidcUserId(sub);
        return { userId, email, ...(userId !== sub ? { formerUserId: sub } : {}) };
      } catch (err) {
        // A failure to fetch the keys (network error, timeout, a JWKS that is not JSON) is the
        // provider's, not the user's: jose passes fetch errors through as they are.
        const code = (err as { code?: string }).code;
        if (
          !(err instanceof joseErrors.JOSEError) ||
          code === 'ERR_JWKS_TIMEOUT' ||
          code === 'ERR_JOSE_GENERIC' ||
          code === 'ERR_JWKS_INVALID'
        )
          throw upstreamError('The sign-in provider could not be reached', err);
        throw unauthorized('Invalid idToken');
      }
    },
  };
}
