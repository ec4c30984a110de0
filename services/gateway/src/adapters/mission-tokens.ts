// Short-lived tokens scoped to one mission of one household and one user: HS256 JWTs (jose,
// https://github.com/panva/jose) whose audience says what they open (`voice`, `stream`). A bearer
// access token (another audience) is never accepted in their place, nor the other way round,
// and a token of one audience never opens the other.
import { jwtVerify, SignJWT } from 'jose';

export type MissionClaims = { userId: string; email: string; missionId: string; householdId: string };

export function createMissionTokens(settings: {
  jwtSecret: string;
  issuer: string;
  audience: string;
  ttlSeconds: number;
}) {
  const key = new TextEncoder().encode(settings.jwtSecret);
  return {
    ttlSeconds: settings.ttlSeconds,
    issue(claims: MissionClaims): Promise<string> {
      return new SignJWT({ mission: claims.missionId, household: claims.householdId, email: claims.email })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(settings.issuer)
        .setAudience(settings.audience)
        .setIssuedAt()
        .setExpirationTime(`${settings.ttlSeconds}s`)
        .sign(key);
    },
    /** The claims of a valid token; null for a missing, expired, foreign or malformed one. */
    async verify(token: string | undefined): Promise<MissionClaims | null> {
      if (!token) return null;
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: settings.issuer,
          audience: settings.audience,
          requiredClaims: ['exp', 'sub', 'mission', 'household'],
        });
        const { sub, mission, household, email } = payload;
        if (typeof sub !== 'string' || typeof mission !== 'string' || typeof household !== 'string')
          return null;
        return {
          userId: sub,
          missionId: mission,
          householdId: household,
          email: typeof email === 'string' ? email : '',
        };
      } catch {
        return null;
      }
    },
  };
}

export type MissionTokens = ReturnType<typeof createMissionTokens>;
