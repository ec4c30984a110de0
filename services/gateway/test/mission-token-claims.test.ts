// Stream and voice tokens are held to what this gateway issues, as access tokens are: one dated
// ahead of the clock, or living longer than STREAM_TOKEN_TTL_SECONDS, is refused even with a
// valid signature (it could only come from a leaked secret).
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createMissionTokens } from '../src/adapters/mission-tokens.ts';

const settings = { jwtSecret: 'x'.repeat(40), issuer: 'hs-gateway', audience: 'stream', ttlSeconds: 300 };
const tokens = createMissionTokens(settings, { sessionsOf: async () => 0 });
const key = new TextEncoder().encode(settings.jwtSecret);
const now = () => Math.floor(Date.now() / 1000);

const signed = (iat: number | null, exp: number) => {
  const jwt = new SignJWT({ mission: 'msn_1', household: 'hh_1', email: 'a@b.c', sv: 0 })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject('usr_1')
    .setIssuer(settings.issuer)
    .setAudience(settings.audience)
    .setExpirationTime(exp);
  return (iat === null ? jwt : jwt.setIssuedAt(iat)).sign(key);
};

describe('stream and voice tokens: only what this gateway could have issued', () => {
  it('opens with one it issued, and with a hand-made one within its lifetime', async () => {
    const issued = await tokens.issue({
      userId: 'usr_1',
      email: 'a@b.c',
      missionId: 'msn_1',
      householdId: 'hh_1',
      sessions: 0,
    });
    expect(await tokens.verify(issued)).toMatchObject({ userId: 'usr_1', missionId: 'msn_1' });
    expect(await tokens.verify(await signed(now(), now() + 300))).not.toBeNull();
    // Within the replicas' clock skew ahead.
    expect(await tokens.verify(await signed(now() + 10, now() + 300))).not.toBeNull();
  });

  it('refuses one dated ahead, one living longer than the TTL, and one without an issue time', async () => {
    expect(await tokens.verify(await signed(now() + 3600, now() + 3700))).toBeNull();
    expect(await tokens.verify(await signed(now(), now() + 10 * 365 * 86_400))).toBeNull();
    expect(await tokens.verify(await signed(now() - 10, now() + 301))).toBeNull();
    expect(await tokens.verify(await signed(null, now() + 300))).toBeNull();
  });
});
