import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccessTokens } from '../src/adapters/access-tokens.ts';
import { bearer, buildGateway, type GatewayApp, login } from './gateway-harness.ts';

let app: GatewayApp;
let parent: { token: string; userId: string };
let adult: { token: string; userId: string };

beforeAll(async () => {
  app = await buildGateway();
  parent = await login(app, 'parent@cache.test');
  adult = await login(app, 'adult@cache.test');
});
afterAll(() => app.close());
afterEach(() => vi.useRealTimers());

const get = (token: string, url: string) => app.inject({ method: 'GET', url, headers: bearer(token) });

async function householdWithAdult(): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/households',
    headers: bearer(parent.token),
    payload: { name: 'Cached home' },
  });
  const id = created.json().householdId as string;
  const added = await app.inject({
    method: 'POST',
    url: `/api/v1/households/${id}/members`,
    headers: bearer(parent.token),
    payload: { memberId: adult.userId, role: 'ADULT' },
  });
  expect(added.statusCode).toBe(201);
  return id;
}

describe('membership seen by the gateway that changed it', () => {
  it('refuses a removed member at once, though their access was just checked', async () => {
    const id = await householdWithAdult();
    expect((await get(adult.token, `/api/v1/households/${id}`)).statusCode).toBe(200);
    expect((await get(adult.token, `/api/v1/households/${id}`)).statusCode).toBe(200);
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/v1/households/${id}/members/${adult.userId}`,
      headers: bearer(parent.token),
    });
    expect(removed.statusCode).toBe(204);
    const after = await get(adult.token, `/api/v1/households/${id}`);
    expect(after.statusCode).toBe(403);
    expect(after.json()).toEqual({ error: 'FORBIDDEN', message: 'User is not a household member' });
  });

  it('applies a role change at once', async () => {
    const id = await householdWithAdult();
    expect((await get(adult.token, `/api/v1/households/${id}`)).statusCode).toBe(200);
    const demoted = await app.inject({
      method: 'PATCH',
      url: `/api/v1/households/${id}/members/${adult.userId}`,
      headers: bearer(parent.token),
      payload: { role: 'CHILD' },
    });
    expect(demoted.statusCode).toBe(200);
    const seen = (await get(adult.token, `/api/v1/households/${id}`)).json();
    const me = seen.members.find((m: { memberId: string }) => m.memberId === adult.userId);
    expect(me.role).toBe('CHILD');
  });
});

describe('verified access tokens', () => {
  const settings = { jwtSecret: 'x'.repeat(32), ttlSeconds: 60, issuer: 'iss', audience: 'aud' };

  it('refuses a token that expired after it was accepted', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tokens = createAccessTokens(settings, { sessionsOf: async () => 0 });
    const token = await tokens.issue({ userId: 'u_1', email: 'a@b.test' });
    await expect(tokens.verify(token)).resolves.toEqual({ userId: 'u_1', email: 'a@b.test', sessions: 0 });
    vi.setSystemTime(Date.now() + 61_000);
    await expect(tokens.verify(token)).rejects.toMatchObject({ message: 'Access token has expired' });
  });

  it('accepts a token issued across a second boundary (its iat and exp read one clock)', async () => {
    const tokens = createAccessTokens(settings, { sessionsOf: async () => 0 });
    // Each reading of the clock moves it 2 ms, starting 1 ms before a second ends: a token whose
    // `iat` and `exp` read it apart lived one second over the TTL and was refused at once.
    const RealDate = Date;
    let at = Math.ceil(RealDate.now() / 1000) * 1000 - 1;
    class SteppingDate extends RealDate {
      constructor(...args: ConstructorParameters<typeof Date>) {
        if (args.length > 0) super(...args);
        else {
          super(at);
          at += 2;
        }
      }
      static override now() {
        const now = at;
        at += 2;
        return now;
      }
    }
    vi.stubGlobal('Date', SteppingDate);
    let token: string;
    try {
      token = await tokens.issue({ userId: 'u_1', email: 'a@b.test' });
    } finally {
      vi.unstubAllGlobals();
    }
    await expect(tokens.verify(token)).resolves.toMatchObject({ userId: 'u_1' });
  });

  it('does not accept a token signed with another secret, even after a good one', async () => {
    const tokens = createAccessTokens(settings, { sessionsOf: async () => 0 });
    const other = createAccessTokens(
      { ...settings, jwtSecret: 'y'.repeat(32) },
      { sessionsOf: async () => 0 },
    );
    await tokens.verify(await tokens.issue({ userId: 'u_1', email: '' }));
    const forged = await other.issue({ userId: 'u_1', email: '' });
    await expect(tokens.verify(forged)).rejects.toMatchObject({ message: 'Invalid access token' });
  });
});
