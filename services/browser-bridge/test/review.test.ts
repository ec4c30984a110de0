// Found in review: an unsigned request with a malformed body learned 400 instead of 401, and
// NAVIGATE could point the (in-network) browser at internal addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign, signingKey } from '../src/domain/webhook-signature.ts';
import { asMember, buildBridge, internal, SIGNING_SECRET, startFakeOrchestrator } from './harness.ts';

let orch: Awaited<ReturnType<typeof startFakeOrchestrator>>;
let app: Awaited<ReturnType<typeof buildBridge>>;
let sessionId: string;
beforeAll(async () => {
  orch = await startFakeOrchestrator();
  app = await buildBridge({ orchestratorUrl: orch.url });
  sessionId = (
    await app.inject({
      method: 'POST',
      url: '/api/v1/sessions',
      headers: internal,
      payload: { householdId: 'h_1', missionId: 'msn_1' },
    })
  ).json().sessionId;
});
afterAll(async () => {
  await app.close();
  await orch.close();
});

const key = signingKey(SIGNING_SECRET);
const signed = (id: string, body: string, ts = Math.floor(Date.now() / 1000)) => ({
  'content-type': 'application/json',
  'webhook-id': id,
  'webhook-timestamp': String(ts),
  'webhook-signature': sign(key, id, ts, body),
});
const post = (headers: Record<string, string>, payload: string) =>
  app.inject({ method: 'POST', url: '/api/v1/browser/events', headers, payload });

describe('extension events: signature before body', () => {
  it('an unsigned malformed body is 401 UNSIGNED_EVENT, a signed one 400 (and its id stays usable)', async () => {
    const unsigned = await post({ 'content-type': 'application/json' }, '{not json');
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json()).toEqual({ error: 'UNSIGNED_EVENT', message: 'Browser event is not signed' });
    const forged = await post({ ...signed('msg_x', '{other'), 'webhook-signature': 'v1,AAAA' }, '{not json');
    expect(forged.json().error).toBe('INVALID_SIGNATURE');
    const bad = await post(signed('msg_bad', '{not json'), '{not json');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'BAD_REQUEST', message: 'Body is not valid JSON' });
    const body = JSON.stringify({ sessionId, missionId: 'msn_1', type: 'PAGE_LOADED' });
    expect((await post(signed('msg_bad', body), body)).statusCode).toBe(200);
  });

  it('a timestamp in the future beyond the tolerance is refused', async () => {
    const body = JSON.stringify({ sessionId, missionId: 'msn_1', type: 'PAGE_LOADED' });
    // Well past the tolerance: at 301 s, a second boundary crossed between signing and checking
    // (both count whole seconds) made it 300 s, within the tolerance.
    const res = await post(signed('msg_future', body, Math.floor(Date.now() / 1000) + 310), body);
    expect(res.json()).toEqual({
      error: 'INVALID_SIGNATURE',
      message: 'Webhook timestamp is outside the 5 minute tolerance',
    });
  });
});

describe('agent NAVIGATE stays on the public web', () => {
  const act = (url: string) =>
    app.inject({
      method: 'POST',
      url: `/api/v1/sessions/${sessionId}/agent-action`,
      headers: internal,
      payload: { type: 'NAVIGATE', url },
    });

  it.each([
    ['http://169.254.169.254/latest/meta-data', 'URL must use a domain name, not an IP address'],
    ['http://[::1]:8080/', 'URL must use a domain name, not an IP address'],
    ['http://2130706433/', 'URL must use a domain name, not an IP address'],
    ['http://localhost:8087/api/v1/households', 'URL must have a valid public domain name'],
    ['http://metadata.google.internal/', 'URL must have a valid public domain name'],
    ['https://user:pw@shop.acme.com/', 'URL must not contain credentials'],
  ])('refuses %s with 400 INVALID_REQUEST', async (url, reason) => {
    const res = await act(url);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'INVALID_REQUEST', message: `Action NAVIGATE refused: ${reason}` });
  });

  it('goes to a public shop', async () => {
    const res = await act('https://shop.acme.com/p/1');
    expect(res.statusCode).toBe(200);
    expect(res.json().session.currentUrl).toBe('https://shop.acme.com/p/1');
  });

  it('three takeovers at once: one transition, one mission event, all 200', async () => {
    const before = orch.events.length;
    const all = await Promise.all(
      [1, 2, 3].map(() =>
        app.inject({
          method: 'POST',
          url: `/api/v1/households/h_1/browser/sessions/${sessionId}/takeover`,
          headers: asMember(),
        }),
      ),
    );
    expect(all.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(all.map((r) => r.json().status)).toEqual(['USER_TAKEOVER', 'USER_TAKEOVER', 'USER_TAKEOVER']);
    expect(orch.events.slice(before).map((e) => e.body.type)).toEqual(['USER_TAKEOVER_START']);
  });
});

describe('a session starts on the public web', () => {
  it.each([
    ['http://169.254.169.254/latest/meta-data', 'URL must use a domain name, not an IP address'],
    ['http://localhost:8087/', 'URL must have a valid public domain name'],
  ])('refuses startUrl %s with 400 INVALID_REQUEST and creates nothing', async (startUrl, reason) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/sessions',
      headers: internal,
      payload: { householdId: 'h_1', missionId: 'msn_2', startUrl },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'INVALID_REQUEST', message: `startUrl refused: ${reason}` });
  });
});
