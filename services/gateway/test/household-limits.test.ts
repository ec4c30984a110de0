import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildGateway, type GatewayApp, login } from './gateway-harness.ts';

type User = { token: string; userId: string };
let app: GatewayApp;
beforeAll(async () => {
  app = await buildGateway();
});
afterAll(() => app.close());

const createHousehold = (user: User, name = 'Home') =>
  app.inject({ method: 'POST', url: '/api/v1/households', headers: bearer(user.token), payload: { name } });
const addMember = (guardian: User, householdId: string, memberId: string) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/households/${householdId}/members`,
    headers: bearer(guardian.token),
    payload: { memberId, role: 'ADULT' },
  });
const listHouseholds = async (user: User) =>
  (await app.inject({ method: 'GET', url: '/api/v1/households', headers: bearer(user.token) })).json();

async function createMany(user: User, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await createHousehold(user, `Home ${i}`);
    expect(res.statusCode).toBe(201);
    ids.push(res.json().householdId);
  }
  return ids;
}

describe('households per user', () => {
  it('lets a user create 20 households and refuses the 21st with 409', async () => {
    const user = await login(app, 'builder@limits.test');
    await createMany(user, 20);
    const res = await createHousehold(user);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'CONFLICT', message: 'A user can create at most 20 households' });
    expect(await listHouseholds(user)).toHaveLength(20);
  });

  it('refuses to add a user who already belongs to 50 households, and lists all 50 to them', async () => {
    const joiner = await login(app, 'joiner@limits.test');
    const [a, b, c, d] = [
      await login(app, 'a@limits.test'),
      await login(app, 'b@limits.test'),
      await login(app, 'c@limits.test'),
      await login(app, 'd@limits.test'),
    ];
    const joins: Array<[User, string]> = [];
    for (const [guardian, count] of [
      [a, 20],
      [b, 20],
      [c, 10],
    ] as const)
      for (const id of await createMany(guardian, count)) joins.push([guardian, id]);
    for (const [guardian, id] of joins)
      expect((await addMember(guardian, id, joiner.userId)).statusCode).toBe(201);
    expect(await listHouseholds(joiner)).toHaveLength(50);

    const another = (await createHousehold(d)).json().householdId as string;
    const refused = await addMember(d, another, joiner.userId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'CONFLICT',
      message: 'The user already belongs to 50 households, the most a user can belong to',
    });
    const own = await createHousehold(joiner);
    expect(own.statusCode).toBe(409);
    expect(own.json()).toEqual({
      error: 'CONFLICT',
      message: 'You already belong to 50 households, the most a user can belong to',
    });

    // Leaving one makes room again.
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/v1/households/${joins[0]?.[1]}/members/${joiner.userId}`,
      headers: bearer(a.token),
    });
    expect(removed.statusCode).toBe(204);
    expect((await addMember(d, another, joiner.userId)).statusCode).toBe(201);
    expect(await listHouseholds(joiner)).toHaveLength(50);
  });
});

describe('households created per day', () => {
  it('stops a user who creates and leaves households in a loop (RATE_LIMIT_HOUSEHOLDS_PER_DAY)', async () => {
    const limited = await buildGateway({ RATE_LIMIT_HOUSEHOLDS_PER_DAY: '3' });
    try {
      const churner = await login(limited, 'churner@limits.test');
      const create = () =>
        limited.inject({
          method: 'POST',
          url: '/api/v1/households',
          headers: bearer(churner.token),
          payload: { name: 'Spam' },
        });
      for (let i = 0; i < 3; i++) {
        const created = await create();
        expect(created.statusCode).toBe(201);
        // Leaving frees the place among the 20 live households a user may have created.
        const id = created.json().householdId;
        const left = await limited.inject({
          method: 'DELETE',
          url: `/api/v1/households/${id}/members/${churner.userId}`,
          headers: bearer(churner.token),
        });
        expect(left.statusCode).toBe(204);
      }
      const refused = await create();
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toBe('RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 3600);
      // A refusal (a bad body) costs nothing, and neither does a keyed retry of a create it answered.
      expect(
        (
          await limited.inject({
            method: 'POST',
            url: '/api/v1/households',
            headers: bearer(churner.token),
            payload: {},
          })
        ).statusCode,
      ).toBe(422);
      // Another user is not counted with them; their keyed retry replays after their quota is used.
      const other = await login(limited, 'other@limits.test');
      const keyed = (key: string) =>
        limited.inject({
          method: 'POST',
          url: '/api/v1/households',
          headers: { ...bearer(other.token), 'idempotency-key': key },
          payload: { name: 'Keyed' },
        });
      const k1 = await keyed('household-k1');
      const k2 = await keyed('household-k2');
      expect([k1.statusCode, k2.statusCode]).toEqual([201, 201]);
      const replay = await keyed('household-k2');
      expect(replay.statusCode).toBe(201);
      expect(replay.json().householdId).toBe(k2.json().householdId);
      const theirs = await limited.inject({
        method: 'POST',
        url: '/api/v1/households',
        headers: bearer(other.token),
        payload: { name: 'Home' },
      });
      expect(theirs.statusCode).toBe(201);
      expect((await keyed('household-k3')).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
