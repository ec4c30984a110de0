// Decisions, Conventions: membership and role (403) and the resource's existence (404) are
// answered before the body (400/422) or a stream's Last-Event-ID is looked at, so a member poking
// at another member's mission, or at one that does not exist, learns nothing from its body.
import { describe, expect, it } from 'vitest';
import { as, H, OWNER } from './fixtures/build.ts';
import { withFakePeers } from './fixtures/with-fake-peers.ts';

const t = withFakePeers();
const M = `/api/v1/households/${H}/orchestrator/missions`;
const kid = as('usr_kid', { 'x-member-role': 'CHILD' });
const adult = as('usr_adult', { 'x-member-role': 'ADULT' });
const NOT_FOLLOWER = "Only the mission's owner can follow this mission (any member, for a POLL mission)";

async function ownersStyleMission(): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: M,
    headers: as(OWNER),
    payload: { mission_type: 'STYLE', initial_message: 'summer tops' },
  });
  expect(res.statusCode).toBe(201);
  return res.json().mission_id;
}

describe("another member's mission: 403 before the body", () => {
  it('chat with an empty message', async () => {
    const mId = await ownersStyleMission();
    const res = await t.app.inject({
      method: 'POST',
      url: `${M}/${mId}/chat`,
      headers: adult,
      payload: { message: '' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Only the owner of the mission can chat with it',
    });
    // The owner's own empty message is still the schema's 422.
    const own = await t.app.inject({
      method: 'POST',
      url: `${M}/${mId}/chat`,
      headers: as(OWNER),
      payload: { message: '' },
    });
    expect(own.statusCode).toBe(422);
  });

  it('a brief correction naming someone outside the household', async () => {
    const mId = await ownersStyleMission();
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${M}/${mId}/brief`,
      headers: kid,
      payload: { forMemberId: 'usr_nobody' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Only the owner of the mission can correct its brief',
    });
  });

  it('complete and cancel with a body they do not take', async () => {
    const mId = await ownersStyleMission();
    for (const action of ['complete', 'cancel']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${M}/${mId}/${action}`,
        headers: kid,
        payload: { x: 1 },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Only the owner of the mission can end it');
    }
  });

  it("a CHILD's client event of an unknown type", async () => {
    const mId = await ownersStyleMission();
    const res = await t.app.inject({
      method: 'POST',
      url: `${M}/${mId}/events`,
      headers: kid,
      payload: { eventType: 'NOPE' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: NOT_FOLLOWER });
  });

  it('a stream opened with a malformed Last-Event-ID', async () => {
    const mId = await ownersStyleMission();
    const res = await t.app.inject({
      method: 'GET',
      url: `${M}/${mId}/stream`,
      headers: { ...kid, accept: 'text/event-stream', 'last-event-id': 'abc' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: NOT_FOLLOWER });
  });
});

describe('a mission that does not exist: 404 before the body', () => {
  const missing = `${M}/msn_missing`;
  it.each([
    ['POST', `${missing}/chat`, { message: '' }],
    ['PATCH', `${missing}/brief`, { forMemberId: 'usr_nobody' }],
    ['POST', `${missing}/events`, { eventType: 'NOPE' }],
    ['POST', `${missing}/complete`, { x: 1 }],
  ] as const)('%s %s', async (method, url, payload) => {
    const res = await t.app.inject({ method, url, headers: as(OWNER), payload });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Mission not found' });
  });

  it('GET stream with a malformed Last-Event-ID', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${missing}/stream`,
      headers: { ...as(OWNER), accept: 'text/event-stream', 'last-event-id': 'abc' },
    });
    expect(res.statusCode).toBe(404);
  });
});
