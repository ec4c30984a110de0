import { describe, expect, it } from 'vitest';
import { as, H, OWNER } from './fixtures/build.ts';
import { withFakePeers } from './fixtures/with-fake-peers.ts';

const t = withFakePeers();
const M = `/api/v1/households/${H}/orchestrator/missions`;
const kid = as('usr_kid', { 'x-member-role': 'CHILD' });

const create = (headers: Record<string, string>, mission_type: string, initial_message = 'hello') =>
  t.app.inject({ method: 'POST', url: M, headers, payload: { mission_type, initial_message } });
const list = async (headers: Record<string, string>, query = '') =>
  (await t.app.inject({ method: 'GET', url: `${M}${query}`, headers })).json() as Array<{
    mission_id: string;
  }>;

describe('roles in missions', () => {
  it('refuses a CHILD an INTERACTIVE mission (403) and creates nothing', async () => {
    const res = await create(kid, 'INTERACTIVE', 'open the shop');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'A CHILD may not start INTERACTIVE missions' });
    expect(await list(kid)).toEqual([]);
    expect((await create(kid, 'STYLE')).statusCode).toBe(201);
  });

  it("lists the caller's own missions plus the household's open polls; ?mine=true only their own", async () => {
    const poll = (await create(as(OWNER), 'POLL', 'summer looks under 50 EUR')).json();
    const style = (await create(as(OWNER), 'STYLE')).json();
    const ended = (await create(as(OWNER), 'POLL', 'shoes under 40 EUR')).json();
    await t.app.inject({ method: 'POST', url: `${M}/${ended.mission_id}/complete`, headers: as(OWNER) });
    const own = (await create(kid, 'STYLE')).json();

    expect((await list(kid)).map((m) => m.mission_id)).toEqual([own.mission_id, poll.mission_id]);
    expect((await list(kid, '?mine=true')).map((m) => m.mission_id)).toEqual([own.mission_id]);
    expect((await list(as(OWNER))).map((m) => m.mission_id)).toEqual([
      ended.mission_id,
      style.mission_id,
      poll.mission_id,
    ]);
  });
});
