// Short-lived tokens scoped to one mission of one household and one user: HS256 JWTs (jose,
// https://github.com/panva/jose) whose audience says what they open (`voice`, `stream`). A bearer
// access token (another audience) is never accepted in their place, nor the other way round,
// and a token of one audience never opens the other.
// Like access tokens, they carry the user's sign-out count and stop working once the user signs
// out everywhere, and are refused when dated ahead or living longer than this gateway issues them.
import { jwtVerify, SignJWT } from 'jose';
import { notIssuedHere, nowSeconds, sessionsClaim } from './access-tokens.ts';
import { type SessionCounts, signedOutSince } from './user-directory.ts';

export type MissionClaims = {
  userId: string;
  email: string;
  missionId: string;
  householdId: string;
  /** The sign-out count of the access token it was issued for. */
  sessions: number;
};

export function createMissionTokens(
  settings: {
    jwtSecret: string;
    issuer: string;
    audience: string;
    ttlSeconds: number;
  },
  sessions: SessionCounts,
) {
  const key = new TextEncoder().encode(settings.jwtSecret);
  return {
    ttlSeconds: settings.ttlSeconds,
    issue(claims: MissionClaims): Promise<string> {
      const issuedAt = nowSeconds();
      return new SignJWT({
        mission: claims.missionId,
        household: claims.householdId,
        email: claims.email,
        sv: claims.sessions,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(settings.issuer)
        .setAudience(settings.audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + settings.ttlSeconds)
        .sign(key);
    },
    /**
     * The claims of a valid token; null for a missing, expired, foreign or malformed one, or one
     * issued before its user signed out everywhere.
     */
    async verify(token: string | undefined): Promise<MissionClaims | null> {
      const claims = await signedClaims(token);
      if (!claims) return null;
      // Outside the signature check: a store that cannot answer is its own error, not a bad token.
      return (await signedOutSince(sessions, claims.userId, claims.sessions)) ? null : claims;
    },
  };

  async function signedClaims(token: string | undefined): Promise<MissionClaims | null> {
    if (!token) return null;
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        issuer: settings.issuer,
        audience: settings.audience,
        requiredClaims: ['exp', 'iat', 'sub', 'mission', 'household'],
      });
      // Held to what this gateway issues, as access tokens are (a 10-year token, or one dated ahead).
      if (notIssuedHere(payload, settings.ttlSeconds) !== null) return null;
      const { sub, mission, household, email } = payload;
      if (typeof sub !== 'string' || typeof mission !== 'string' || typeof household !== 'string')
        return null;
      return {
        userId: sub,
        missionId: mission,
        householdId: household,
        email: typeof email === 'string' ? email : '',
        sessions: sessionsClaim(payload.sv),
      };
    } catch {
      return null;
    }
  }
}

export type MissionTokens = ReturnType<typeof createMissionTokens>;
