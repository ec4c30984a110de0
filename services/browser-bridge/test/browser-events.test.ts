import { createHmac } from 'node:crypto';
import type { BrowserSession } from '@hs/contracts';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBridge, internal, ORCH_TOKEN, SIGNING_SECRET, startFakeOrchestrator } from './harness.ts';

type App = Awaited<ReturnType<typeof buildBridge>>;
let orchestrator: Awaited<ReturnType<typeof startFakeOrchestrator>>;
let app: App;
let session: BrowserSession;
let n = 0;

beforeAll(async () => {
  orchestrator = await startFakeOrchestrator();
  app = await buildBridge({ orchestratorUrl: orchestrator.url });
  session = await openSession(app, 'msn_interactive9');
});
afterAll(async () => {
  await app.close();
  await orchestrator.close();
});

async function openSession(target: App, missionId: string): Promise<BrowserSession> {
  const res = await target.inject({
    method: 'POST',
    url: '/api/v1/sessions',
    headers: internal,
    payload: { householdId: 'h_ev', missionId },
  });
  return res.json();
}

function signed(payload: string, options: { id?: string; at?: Date; secret?: string } = {}) {
  const id = options.id ?? `msg_${++n}`;
  const at = options.at ?? new Date();
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(options.secret ?? SIGNING_SECRET).sign(id, at, payload),
  };
}

const send = (payload: string, headers: Record<string, string>, target: App = app) =>
  target.inject({ method: 'POST', url: '/api/v1/browser/events', headers, payload });

const eventBody = (type = 'PAGE_NAVIGATED', s: BrowserSession = session) =>
  JSON.stringify({
    sessionId: s.sessionId,
    missionId: s.missionId,
    type,
    payload: { url: 'https://shop.example.com/cart' },
  });

describe('POST /api/v1/browser/events with signatures enforced', () => {
  it('accepts a standardwebhooks-signed event without a token and forwards it to the mission', async () => {
    const payload = eventBody();
    const res = await send(payload, signed(payload));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      accepted: true,
      sessionId: session.sessionId,
      missionId: 'msn_interactive9',
      type: 'PAGE_NAVIGATED',
    });
    expect(orchestrator.events.at(-1)).toEqual({
      token: ORCH_TOKEN,
      body: {
        missionId: 'msn_interactive9',
        sessionId: session.sessionId,
        householdId: 'h_ev',
        type: 'PAGE_NAVIGATED',
        payload: { url: 'https://shop.example.com/cart' },
      },
    });
  });

  it('answers 401 UNSIGNED_EVENT without a signature', async () => {
    const res = await send(eventBody(), { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'UNSIGNED_EVENT', message: 'Browser event is not signed' });
  });

  it('answers 401 INVALID_SIGNATURE for a tampered body', async () => {
    const payload = eventBody();
    const res = await send(payload.replace('PAGE_NAVIGATED', 'USER_TAKEOVER_END'), signed(payload));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'INVALID_SIGNATURE', message: 'Webhook signature does not match' });
  });

  it('answers 401 INVALID_SIGNATURE for a body re-serialised differently (the raw bytes are signed)', async () => {
    const payload = eventBody();
    const res = await send(JSON.stringify(JSON.parse(payload), null, 2), signed(payload));
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('INVALID_SIGNATURE');
  });

  it('answers 401 INVALID_SIGNATURE for a stale timestamp', async () => {
    const payload = eventBody();
    const res = await send(payload, signed(payload, { at: new Date(Date.now() - 6 * 60 * 1000) }));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: 'INVALID_SIGNATURE',
      message: 'Webhook timestamp is outside the 5 minute tolerance',
    });
  });

  it('answers 401 INVALID_SIGNATURE for a replayed webhook-id', async () => {
    const payload = eventBody('ELEMENT_CLICKED');
    const headers = signed(payload);
    expect((await send(payload, headers)).statusCode).toBe(200);
    const before = orchestrator.events.length;
    const replay = await send(payload, headers);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ error: 'INVALID_SIGNATURE', message: 'Webhook id was already used' });
    expect(orchestrator.events.length).toBe(before);
  });

  it('checks the signature before the body: an unsigned malformed body is still 401', async () => {
    const res = await send('{"type":1}', { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('UNSIGNED_EVENT');
  });

  it('answers 422 for a signed body of the wrong shape, and 400 for signed bytes that are not JSON', async () => {
    const bad = JSON.stringify({
      sessionId: session.sessionId,
      missionId: session.missionId,
      type: 'lower-case',
    });
    const res = await send(bad, signed(bad));
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].loc).toEqual(['body', 'type']);
    const notJson = await send('{nope', signed('{nope'));
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toEqual({ error: 'BAD_REQUEST', message: 'Body is not valid JSON' });
  });

  it('answers 400 for signed bytes that are not UTF-8 rather than reading them with U+FFFD', async () => {
    const before = orchestrator.events.length;
    const latin1 = Buffer.from(eventBody().replace('/cart', '/caf\u00e9'), 'latin1');
    // Signed over the bytes as sent, as a sender signs what it sends.
    const id = `msg_${++n}`;
    const at = new Date();
    const signature = createHmac('sha256', Buffer.from(SIGNING_SECRET.slice(6), 'base64'))
      .update(`${id}.${Math.floor(at.getTime() / 1000)}.`)
      .update(latin1)
      .digest('base64');
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/browser/events',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': `v1,${signature}`,
      },
      payload: latin1,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/UTF-8/);
    expect(orchestrator.events.length).toBe(before);
  });

  it('answers 404 for an unknown session or a mission that does not match it', async () => {
    for (const body of [
      JSON.stringify({ sessionId: 'bs_nope', missionId: session.missionId, type: 'PAGE_NAVIGATED' }),
      JSON.stringify({ sessionId: session.sessionId, missionId: 'msn_other', type: 'PAGE_NAVIGATED' }),
    ]) {
      const res = await send(body, signed(body));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Browser session not found' });
    }
  });

  it("passes the orchestrator's 409 INVALID_MISSION_TYPE through", async () => {
    const styleSession = await openSession(app, 'msn_style1');
    const payload = eventBody('USER_TAKEOVER_START', styleSession);
    const res = await send(payload, signed(payload));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'INVALID_MISSION_TYPE', message: 'Mission is not INTERACTIVE' });
  });

  it('moves the session with USER_TAKEOVER_START/END from the extension, so the agent is refused meanwhile', async () => {
    const s = await openSession(app, 'msn_interactive11');
    const start = eventBody('USER_TAKEOVER_START', s);
    expect((await send(start, signed(start))).statusCode).toBe(200);
    const act = () =>
      app.inject({
        method: 'POST',
        url: `/api/v1/sessions/${s.sessionId}/agent-action`,
        headers: internal,
        payload: { type: 'SCROLL' },
      });
    expect((await act()).json()).toEqual({
      error: 'CONFLICT',
      message: 'the user is in control of the browser',
    });
    const end = eventBody('USER_TAKEOVER_END', s);
    expect((await send(end, signed(end))).statusCode).toBe(200);
    expect((await act()).statusCode).toBe(200);
    expect(orchestrator.events.slice(-2).map((e) => e.body.type)).toEqual([
      'USER_TAKEOVER_START',
      'USER_TAKEOVER_END',
    ]);
  });

  it('lets the sender retry with the same webhook-id when the orchestrator was down', async () => {
    const payload = eventBody('FORM_SUBMITTED');
    const headers = signed(payload);
    orchestrator.setDown(true);
    const failed = await send(payload, headers);
    orchestrator.setDown(false);
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error).toBe('UPSTREAM_ERROR');
    const retried = await send(payload, headers);
    expect(retried.statusCode).toBe(200);
  });
});

describe('POST /api/v1/browser/events without enforcement', () => {
  it('accepts unsigned events in development', async () => {
    const dev = await buildBridge({
      orchestratorUrl: orchestrator.url,
      env: { BROWSER_ENFORCE_EVENT_SIGNATURES: 'false' },
    });
    try {
      const s = await openSession(dev, 'msn_interactive10');
      const res = await send(eventBody('PAGE_NAVIGATED', s), { 'content-type': 'application/json' }, dev);
      expect(res.statusCode).toBe(200);
    } finally {
      await dev.close();
    }
  });
});

// An extension event's payload lands in the mission's event log and is replayed to every stream of
// the mission: a signed extension must not be able to push page-sized blobs into it.
describe('POST /api/v1/browser/events payload bounds', () => {
  const sendSigned = (payload: Record<string, unknown>) => {
    const body = JSON.stringify({
      sessionId: session.sessionId,
      missionId: session.missionId,
      type: 'PAGE_NAVIGATED',
      payload,
    });
    return send(body, signed(body));
  };

  it('forwards a payload with a long page URL (within 20 keys and 4096 bytes)', async () => {
    const url = `https://shop.example.com/p?q=${'a'.repeat(2000)}`;
    const res = await sendSigned({ url, title: 'Blue raincoat', selector: '#add-to-cart' });
    expect(res.statusCode).toBe(200);
    expect(orchestrator.events.at(-1)?.body.payload).toEqual({
      url,
      title: 'Blue raincoat',
      selector: '#add-to-cart',
    });
  });

  it('refuses a payload over 4096 bytes as JSON with 422 VALIDATION_ERROR and forwards nothing', async () => {
    const before = orchestrator.events.length;
    const res = await sendSigned({ html: 'x'.repeat(5000) });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: 'VALIDATION_ERROR',
      message: 'Request validation failed',
      details: [{ loc: ['body', 'payload'], msg: 'must be at most 4096 bytes as JSON', type: 'custom' }],
    });
    expect(orchestrator.events.length).toBe(before);
  });

  it('counts bytes, not characters (multi-byte text)', async () => {
    const res = await sendSigned({ note: 'é'.repeat(2100) });
    expect(res.statusCode).toBe(422);
  });

  it('refuses a payload with more than 20 keys with 422 VALIDATION_ERROR', async () => {
    const payload = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i]));
    const res = await sendSigned(payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([
      { loc: ['body', 'payload'], msg: 'must have at most 20 keys', type: 'custom' },
    ]);
  });
});
