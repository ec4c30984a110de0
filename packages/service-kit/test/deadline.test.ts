import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';
import { DEADLINE_MARGIN_MS, REQUEST_SENT_AT_HEADER, REQUEST_TIMEOUT_HEADER } from '../src/deadline.ts';
import { createPeerClient } from '../src/peer-client.ts';

// An outer service whose route calls a slow inner one: the inner call must give up before the
// outer caller does, so the caller gets the outer service's answer, never a timeout of its own.
const inner = Fastify();
const budgets: string[] = [];
let outer: ServiceApp;

beforeAll(async () => {
  inner.get('/slow', async (req) => {
    budgets.push(String(req.headers[REQUEST_TIMEOUT_HEADER]));
    await new Promise((r) => setTimeout(r, 1500));
    return { finished: true };
  });
  await inner.listen({ port: 0, host: '127.0.0.1' });
  const address = inner.server.address();
  const peer = createPeerClient({
    service: 'commerce',
    baseUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    token: 't',
    timeoutMs: 10_000,
  });
  outer = await createServiceApp({ service: 'orchestrator', description: 'outer' });
  outer.get('/api/v1/work', async () => (await peer.call({ method: 'GET', path: '/slow' })).body);
  await outer.ready();
});
afterAll(async () => {
  await outer.close();
  await inner.close();
});

describe('nested deadlines', () => {
  it("cuts the inner call to the caller's remaining time, and passes what is left on", async () => {
    const res = await outer.inject({
      method: 'GET',
      url: '/api/v1/work',
      headers: { [REQUEST_TIMEOUT_HEADER]: '700' },
    });
    expect(res.statusCode).toBe(504);
    const body = res.json();
    expect(body.error).toBe('UPSTREAM_TIMEOUT');
    const limit = Number(/within (\d+) ms/.exec(body.message)?.[1]);
    expect(limit).toBeLessThanOrEqual(700 - DEADLINE_MARGIN_MS);
    expect(Number(budgets.at(-1))).toBe(limit);
  });

  it('does not call at all when no time is left', async () => {
    const before = budgets.length;
    const res = await outer.inject({
      method: 'GET',
      url: '/api/v1/work',
      headers: { [REQUEST_TIMEOUT_HEADER]: '100' },
    });
    expect(res.statusCode).toBe(504);
    expect(budgets.length).toBe(before);
    // Says so, rather than that the peer "did not answer within 0 ms".
    expect(res.json().message).toBe("commerce was not called: no time was left of the request's deadline");
  });

  it("refuses a request read after its caller gave up only on an internal caller's word", async () => {
    const stale = { [REQUEST_TIMEOUT_HEADER]: '5000', [REQUEST_SENT_AT_HEADER]: String(Date.now() - 60_000) };
    // Anyone at the edge may send the headers: a member's request is not refused by them.
    const fromMember = await outer.inject({ method: 'GET', url: '/api/v1/work', headers: stale });
    expect(fromMember.statusCode).toBe(200);
    // An internal caller's stale request is refused unrun.
    const before = budgets.length;
    const fromPeer = await outer.inject({
      method: 'GET',
      url: '/api/v1/work',
      headers: { ...stale, 'x-internal-token': 'any' },
    });
    expect(fromPeer.statusCode).toBe(504);
    expect(fromPeer.json().error).toBe('UPSTREAM_TIMEOUT');
    expect(budgets.length).toBe(before);
  });

  it("keeps the client's own limit without a deadline, and tells the inner service", async () => {
    const res = await outer.inject({ method: 'GET', url: '/api/v1/work' });
    expect(res.statusCode).toBe(200);
    expect(budgets.at(-1)).toBe('10000');
  });
});
