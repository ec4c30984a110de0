import { waitUntil } from '@hs/testing';
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

  it("keeps a member's STYLE mission to its owner; a POLL is open to every member", async () => {
    const style = (await create(as(OWNER), 'STYLE', 'summer tops')).json();
    const poll = (await create(as(OWNER), 'POLL', 'summer looks under 50 EUR')).json();
    const refused = {
      error: 'FORBIDDEN',
      message: "Only the mission's owner can follow this mission (any member, for a POLL mission)",
    };
    const read = (mId: string) => t.app.inject({ method: 'GET', url: `${M}/${mId}`, headers: kid });
    const stream = (mId: string) =>
      t.app.inject({
        method: 'GET',
        url: `${M}/${mId}/stream`,
        headers: { ...kid, accept: 'text/event-stream' },
      });
    const like = (mId: string, offerId: string) =>
      t.app.inject({
        method: 'POST',
        url: `${M}/${mId}/events`,
        headers: kid,
        payload: { eventType: 'USER_LIKED_ITEM', offerId },
      });

    for (const res of [
      await read(style.mission_id),
      await stream(style.mission_id),
      await like(style.mission_id, 'off_1'),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(refused);
    }
    expect((await read(poll.mission_id)).statusCode).toBe(200);
    // Votes go to the offers the poll proposed.
    const candidate = poll.history[1].tool_calls[0].result.items[0].offerId;
    expect((await like(poll.mission_id, candidate)).statusCode).toBe(200);
    // The poll's vote is recorded; the refused like on the STYLE mission, sent before it, is not.
    const recorded = await waitUntil('the vote in the audit log', async () => {
      const votes = t.peers.audit.filter((e) => e.action === 'CLIENT_EVENT');
      return votes.length > 0 ? votes : undefined;
    });
    expect(recorded.map((e) => e.missionId)).toEqual([poll.mission_id]);
  });

  it('takes purchase signals only from the roles that take those actions', async () => {
    const own = (await create(kid, 'STYLE')).json();
    // Each names its request, as the contract requires: one approved and completed, in the fake gateway.
    const signal = (headers: Record<string, string>, mId: string, eventType: string) =>
      t.app.inject({
        method: 'POST',
        url: `${M}/${mId}/events`,
        headers,
        payload: { eventType, requestId: 'pr_done' },
      });

    const approve = await signal(kid, own.mission_id, 'USER_APPROVED_REQUEST');
    expect(approve.statusCode).toBe(403);
    expect(approve.json().message).toBe('Only a parent or guardian approves purchase requests');
    const confirm = await signal(kid, own.mission_id, 'USER_CONFIRMED_FINAL_CHECKOUT');
    expect(confirm.statusCode).toBe(403);
    expect(confirm.json().message).toBe('A child member cannot confirm a checkout');

    const adult = as('usr_adult', { 'x-member-role': 'ADULT' });
    const mine = (await create(adult, 'STYLE')).json();
    expect((await signal(adult, mine.mission_id, 'USER_APPROVED_REQUEST')).statusCode).toBe(403);
    expect((await signal(adult, mine.mission_id, 'USER_CONFIRMED_FINAL_CHECKOUT')).statusCode).toBe(200);
    // A guardian approves a member's request, then signals it on that member's mission.
    expect((await signal(as(OWNER), own.mission_id, 'USER_APPROVED_REQUEST')).statusCode).toBe(200);
    // One that names no request is refused before anything else is looked at.
    const unnamed = await t.app.inject({
      method: 'POST',
      url: `${M}/${mine.mission_id}/events`,
      headers: adult,
      payload: { eventType: 'USER_CONFIRMED_FINAL_CHECKOUT' },
    });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().details).toContainEqual(
      expect.objectContaining({
        loc: ['body', 'requestId'],
        msg: 'is required for USER_CONFIRMED_FINAL_CHECKOUT',
      }),
    );
  });
});
