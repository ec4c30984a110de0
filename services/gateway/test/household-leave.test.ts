// Adding a member needs no consent, so leaving must always be possible: a stranger who adds
// someone as PARENT_GUARDIAN to a household of their own and leaves must not trap them in it
// (each such household counts against the 50 a user may belong to).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildGateway, type GatewayApp, login } from './gateway-harness.ts';

let app: GatewayApp;
type User = { token: string; userId: string };
let victim: User;
let stranger: User;
let puppet: User;

beforeAll(async () => {
  app = await buildGateway();
  victim = await login(app, 'victim@family.test');
  stranger = await login(app, 'stranger@other.test');
  puppet = await login(app, 'puppet@other.test');
});
afterAll(() => app.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, who: User, payload?: object) =>
  app.inject({ method, url: `/api/v1${url}`, headers: bearer(who.token), ...(payload ? { payload } : {}) });

/** The stranger's trap: a household with the victim as its only guardian. */
async function trap(extra: Array<[User, string]> = []) {
  const h = (await call('POST', '/households', stranger, { name: 'Prize draw: claim your voucher' })).json();
  const id = h.householdId as string;
  expect(
    (
      await call('POST', `/households/${id}/members`, stranger, {
        memberId: victim.userId,
        role: 'PARENT_GUARDIAN',
      })
    ).statusCode,
  ).toBe(201);
  for (const [who, role] of extra)
    expect(
      (await call('POST', `/households/${id}/members`, stranger, { memberId: who.userId, role })).statusCode,
    ).toBe(201);
  expect((await call('DELETE', `/households/${id}/members/${stranger.userId}`, stranger)).statusCode).toBe(
    204,
  );
  return id;
}
const listed = async (who: User) =>
  ((await call('GET', '/households', who)).json() as Array<{ householdId: string }>).map(
    (h) => h.householdId,
  );

describe('leaving a household one was put in', () => {
  it('the only member, left as its only guardian, can leave; the household is then nobody’s', async () => {
    const id = await trap();
    expect(await listed(victim)).toContain(id);
    const left = await call('DELETE', `/households/${id}/members/${victim.userId}`, victim);
    expect(left.statusCode).toBe(204);
    expect(await listed(victim)).not.toContain(id);
    expect((await call('GET', `/households/${id}`, victim)).statusCode).toBe(403);
    expect((await call('GET', `/households/${id}`, stranger)).statusCode).toBe(403);
  });

  it('with others left behind, the last guardian is told how to leave, and can after removing them', async () => {
    const id = await trap([[puppet, 'ADULT']]);
    const refused = await call('DELETE', `/households/${id}/members/${victim.userId}`, victim);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'CONFLICT',
      message:
        'A household must keep at least one PARENT_GUARDIAN: make another member a PARENT_GUARDIAN, or remove the other members, before leaving',
    });
    expect((await call('DELETE', `/households/${id}/members/${puppet.userId}`, victim)).statusCode).toBe(204);
    expect((await call('DELETE', `/households/${id}/members/${victim.userId}`, victim)).statusCode).toBe(204);
    expect(await listed(victim)).not.toContain(id);
  });

  it('a guardian still cannot remove the last other guardian of a family', async () => {
    const h = (await call('POST', '/households', victim, { name: 'Home' })).json();
    await call('POST', `/households/${h.householdId}/members`, victim, {
      memberId: puppet.userId,
      role: 'ADULT',
    });
    const removed = await call('DELETE', `/households/${h.householdId}/members/${victim.userId}`, victim);
    expect(removed.statusCode).toBe(409);
    expect((await call('GET', `/households/${h.householdId}`, puppet)).json().members).toHaveLength(2);
  });
});
