import { describe, expect, it } from 'vitest';
import { as, H, OWNER } from './fixtures/build.ts';
import { withFakePeers } from './fixtures/with-fake-peers.ts';

const t = withFakePeers();
const M = `/api/v1/households/${H}/orchestrator/missions`;

async function interactive(): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: M,
    headers: as(OWNER),
    payload: { mission_type: 'INTERACTIVE', initial_message: 'open https://shop.example.com' },
  });
  expect(res.statusCode).toBe(201);
  return res.json().mission_id;
}
const send = (mId: string, payload: object, headers = as(OWNER)) =>
  t.app.inject({ method: 'POST', url: `${M}/${mId}/events`, headers, payload });
const sessionStatus = async () => {
  const res = await fetch(`${t.peers.url}/api/v1/sessions/bs_test1`);
  return ((await res.json()) as { status: string }).status;
};

describe('USER_TAKEOVER_START/END as mission events', () => {
  it('take over and release the browser session through the bridge, as the takeover routes do', async () => {
    const mId = await interactive();
    expect(await sessionStatus()).toBe('ACTIVE');
    const start = await send(mId, { eventType: 'USER_TAKEOVER_START', sessionId: 'bs_test1' });
    expect(start.statusCode).toBe(200);
    expect(await sessionStatus()).toBe('USER_TAKEOVER');
    const takeover = t.peers.calls.find((c) => c.url === '/api/v1/sessions/bs_test1/takeover')!;
    expect(takeover.headers['x-user-id']).toBe(OWNER);
    expect((await send(mId, { eventType: 'USER_TAKEOVER_END', sessionId: 'bs_test1' })).statusCode).toBe(200);
    expect(await sessionStatus()).toBe('ACTIVE');
  });

  it('answers 404 for an unknown session and records nothing', async () => {
    const mId = await interactive();
    const before = (await t.app.ctx.events.after(mId, 0)).length;
    const res = await send(mId, { eventType: 'USER_TAKEOVER_START', sessionId: 'bs_nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Browser session not found' });
    expect(await t.app.ctx.events.after(mId, 0)).toHaveLength(before);
  });

  it("answers 404 for another mission's session, which stays as it was", async () => {
    const earlier = await interactive();
    await interactive(); // the fake bridge's one session now belongs to this later mission
    const res = await send(earlier, { eventType: 'USER_TAKEOVER_START', sessionId: 'bs_test1' });
    expect(res.statusCode).toBe(404);
    expect(await sessionStatus()).toBe('ACTIVE');
  });

  it('refuses a CHILD with 403 and leaves the session ACTIVE', async () => {
    const mId = await interactive();
    const res = await send(
      mId,
      { eventType: 'USER_TAKEOVER_START', sessionId: 'bs_test1' },
      as('usr_kid', { 'x-member-role': 'CHILD' }),
    );
    expect(res.statusCode).toBe(403);
    expect(await sessionStatus()).toBe('ACTIVE');
  });
});
