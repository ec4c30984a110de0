import { describe, expect, it } from 'vitest';
import type { AgentModel } from '../src/domain/agent-model.ts';
import { as, buildTestApp, H, OWNER } from './fixtures/build.ts';
import { withFakePeers } from './fixtures/with-fake-peers.ts';

// The roles table: a CHILD may not act on INTERACTIVE sessions. The gateway sends the caller's
// role of now with each request, so the owner of a mission demoted since is a CHILD here.
const t = withFakePeers();
const M = `/api/v1/households/${H}/orchestrator/missions`;
const demoted = as(OWNER, { 'x-member-role': 'CHILD' });
const CHAT_REFUSED = {
  error: 'FORBIDDEN',
  message: 'A CHILD may not chat in INTERACTIVE missions: the agent would drive a real browser for them',
};

async function interactive(): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: M,
    headers: as(OWNER, { 'x-member-role': 'ADULT' }),
    payload: { mission_type: 'INTERACTIVE', initial_message: 'open https://shop.example.com' },
  });
  expect(res.statusCode).toBe(201);
  return res.json().mission_id;
}
const chat = (mId: string, headers: Record<string, string>, message = 'go to https://www.example.org') =>
  t.app.inject({ method: 'POST', url: `${M}/${mId}/chat`, headers, payload: { message } });
const bridgeActions = () => t.peers.calls.filter((c) => c.method === 'POST' && c.url.includes('/sessions/'));
const sessionStatus = async () => {
  const res = await fetch(`${t.peers.url}/api/v1/sessions/bs_test1`);
  return ((await res.json()) as { status: string }).status;
};

describe('a member demoted to CHILD during an INTERACTIVE mission', () => {
  it('may not chat in it, typed or spoken: 403, no message stored, the browser not driven', async () => {
    const mId = await interactive();
    const before = (await t.app.inject({ method: 'GET', url: `${M}/${mId}`, headers: demoted })).json();
    const actionsBefore = bridgeActions().length;

    const typed = await chat(mId, demoted);
    expect(typed.statusCode).toBe(403);
    expect(typed.json()).toEqual(CHAT_REFUSED);
    const spoken = await chat(mId, { ...demoted, 'x-message-source': 'voice', accept: 'text/event-stream' });
    expect(spoken.statusCode).toBe(403);
    expect(spoken.json()).toEqual(CHAT_REFUSED);

    expect(bridgeActions()).toHaveLength(actionsBefore);
    const after = (await t.app.inject({ method: 'GET', url: `${M}/${mId}`, headers: demoted })).json();
    expect(after.history).toHaveLength(before.history.length);
    expect(after.state).toBe('RUNNING'); // left for a guardian to promote back, or for the owner to end
  });

  it('refuses the role before the state: an ended INTERACTIVE mission is 403 for a CHILD too', async () => {
    const mId = await interactive();
    await t.app.inject({ method: 'POST', url: `${M}/${mId}/complete`, headers: as(OWNER) });
    const res = await chat(mId, demoted);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(CHAT_REFUSED);
  });

  it('may not take over or release its browser by client event: 403, session as it was', async () => {
    const mId = await interactive();
    const refused = { error: 'FORBIDDEN', message: 'A CHILD may not act on browser sessions' };
    for (const eventType of ['USER_TAKEOVER_START', 'USER_TAKEOVER_END']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${M}/${mId}/events`,
        headers: demoted,
        payload: { eventType, sessionId: 'bs_test1' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(refused);
    }
    expect(await sessionStatus()).toBe('ACTIVE');
    expect(t.peers.calls.some((c) => c.url.endsWith('/takeover') || c.url.endsWith('/release'))).toBe(false);
  });

  it('is refused a takeover with 403 before the mission state: an ended mission is 403 too, not 409', async () => {
    const mId = await interactive();
    await t.app.inject({ method: 'POST', url: `${M}/${mId}/complete`, headers: as(OWNER) });
    const res = await t.app.inject({
      method: 'POST',
      url: `${M}/${mId}/events`,
      headers: demoted,
      payload: { eventType: 'USER_TAKEOVER_START', sessionId: 'bs_test1' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'A CHILD may not act on browser sessions' });
  });

  it('keeps chatting in their STYLE missions, which drive no browser', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: M,
      headers: demoted,
      payload: { mission_type: 'STYLE', initial_message: 'summer tops' },
    });
    expect(res.statusCode).toBe(201);
    expect((await chat(res.json().mission_id, demoted, 'something in blue')).statusCode).toBe(200);
  });
});

describe("a CHILD's turn whose model reaches for a browser", () => {
  it('opens none: the call is refused as a safety violation and the bridge is never asked', async () => {
    // A model that ignores the mission type and opens a browser, as a misled real model might.
    const model: AgentModel = {
      name: 'browser-happy',
      async next(input) {
        if (input.steps.length === 0)
          return {
            kind: 'tools',
            calls: [{ tool: 'create_browser_session', args: { startUrl: 'https://www.example.org' } }],
          };
        return { kind: 'reply', text: 'done' };
      },
    };
    const app = await buildTestApp(t.peers.url, { model });
    const res = await app.inject({
      method: 'POST',
      url: M,
      headers: demoted,
      payload: { mission_type: 'STYLE', initial_message: 'open https://www.example.org' },
    });
    expect(res.statusCode).toBe(201);
    expect(t.peers.calls.some((c) => c.method === 'POST' && c.url.startsWith('/api/v1/sessions'))).toBe(
      false,
    );
    expect(res.json().history.at(-1).tool_calls[0]).toMatchObject({
      tool: 'create_browser_session',
      result: { error: { code: 'FORBIDDEN', message: 'A CHILD may not act on browser sessions' } },
    });
  });
});
