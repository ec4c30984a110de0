// Voice session tokens: short-lived HS256 JWTs (jose, https://github.com/panva/jose) with
// audience `voice`, scoped to one mission of one household and one user. A bearer access
// token (another audience) is never accepted in their place, nor the other way round.
import { jwtVerify, SignJWT } from 'jose';

export const VOICE_AUDIENCE = 'voice';

export type VoiceClaims = { userId: string; email: string; missionId: string; householdId: string };

export function createVoiceTokens(settings: { jwtSecret: string; issuer: string; ttlSeconds: number }) {
  const key = new TextEncoder().encode(settings.jwtSecret);
  return {
    ttlSeconds: settings.ttlSeconds,
    issue(claims: VoiceClaims): Promise<string> {
      return new SignJWT({ mission: claims.missionId, household: claims.householdId, email: claims.email })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(settings.issuer)
        .setAudience(VOICE_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${settings.ttlSeconds}s`)
        .sign(key);
    },
    /** The claims of a valid token; null for a missing, expired, foreign or malformed one. */
    async verify(token: string | undefined): Promise<VoiceClaims | null> {
      if (!token) return null;
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: settings.issuer,
          audience: VOICE_AUDIENCE,
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

export type VoiceTokens = ReturnType<typeof createVoiceTokens>;
