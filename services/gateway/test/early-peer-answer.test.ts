// A service may answer a body it has not read: 404 or 403 from a check made before the body
// (decisions: existence and role before the body), 413 from the declared length. Streamed up
// as it arrived, such a body raced that answer: the service closed the connection under the
// upload, and the client got 502 "unreachable" (or a reset on its next request) for about a
// third of a 900 KB chat message to a mission that does not exist.

import { Readable } from 'node:stream';
import { createServiceApp, notFound, type ServiceApp } from '@hs/service-kit';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildGateway, type GatewayApp, withHousehold } from './gateway-harness.ts';

let peer: ServiceApp;
let gateway: GatewayApp;
let gatewayUrl = '';
let reached = 0;

beforeAll(async () => {
  // A service allowing bodies larger than the gateway does: the gateway's limit still holds, as 413.
  peer = await createServiceApp({
    service: 'orchestrator',
    description: 'peer',
    logger: false,
    bodyLimit: 8 * 1_048_576,
  });
  peer.post(
    '/api/v1/households/:id/orchestrator/missions/:mId/chat',
    {
      // As the orchestrator's mission guard: a missing mission is 404 before the body is read.
      onRequest: async (req) => {
        if ((req.params as { mId: string }).mId === 'msn_missing') throw notFound('Mission not found');
      },
    },
    async () => {
      reached++;
      return { ok: true };
    },
  );
  await peer.listen({ port: 0, host: '127.0.0.1' });
  gateway = await buildGateway({
    ORCHESTRATOR_BASE_URL: `http://127.0.0.1:${(peer.server.address() as { port: number }).port}`,
    // Far more chats than a minute allows; the limit is not what is tested here.
    RATE_LIMIT_CHAT_PER_MINUTE: '0',
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await gateway.close();
  await peer.close();
});

describe('a body the service answers without reading', () => {
  it('gets the service’s answer every time, on a connection that stays usable', async () => {
    const { token, householdId: id } = await withHousehold(gateway, `early-${Math.random()}@x.test`);
    // One connection, kept alive: a reset would fail the request after the refused one.
    const client = new Agent({ connections: 1 });
    const statuses: number[] = [];
    const send = async (mId: string, bytes: number, chunked = false, key?: string) => {
      const json = JSON.stringify({ message: 'x'.repeat(bytes) });
      const res = await request(`${gatewayUrl}/api/v1/households/${id}/orchestrator/missions/${mId}/chat`, {
        method: 'POST',
        dispatcher: client,
        headers: {
          ...bearer(token),
          'content-type': 'application/json',
          ...(key ? { 'idempotency-key': key } : {}),
        },
        // A stream of unknown length goes as chunked transfer encoding.
        body: chunked ? Readable.from([json.slice(0, 1000), json.slice(1000)]) : json,
      });
      statuses.push(res.statusCode);
      return res.body.json();
    };
    try {
      for (let i = 0; i < 6; i++) {
        // Within the body limit, between it and what a service drops before refusing, and above.
        expect(await send('msn_missing', 900_000)).toMatchObject({ error: 'NOT_FOUND' });
        expect(await send('msn_missing', 2_000_000)).toMatchObject({ error: 'NOT_FOUND' });
        await send('msn_real', 2_000_000);
        await send('msn_real', 20_000_000);
        expect(await send('msn_real', 10)).toEqual({ ok: true });
        expect(await send('msn_missing', 900_000, true)).toMatchObject({ error: 'NOT_FOUND' });
        expect(await send('msn_missing', 2_000_000, true)).toMatchObject({ error: 'NOT_FOUND' });
        expect(await send('msn_real', 2_000_000, true)).toMatchObject({
          error: 'PAYLOAD_TOO_LARGE',
          message: 'Request body is too large',
        });
        expect(await send('msn_real', 10, true)).toEqual({ ok: true });
        // With an Idempotency-Key, the same order and the same usable connection.
        expect(await send('msn_missing', 2_000_000, false, `k-${i}`)).toMatchObject({ error: 'NOT_FOUND' });
        expect(await send('msn_real', 2_000_000, true, `k2-${i}`)).toMatchObject({
          error: 'PAYLOAD_TOO_LARGE',
        });
        expect(await send('msn_real', 10, false, `k3-${i}`)).toEqual({ ok: true });
      }
    } finally {
      await client.close();
    }
    expect(statuses).toEqual(
      Array.from({ length: 6 }, () => [404, 404, 413, 413, 200, 404, 404, 413, 200, 404, 413, 200]).flat(),
    );
    expect(reached).toBe(18);
  }, 60_000);
});

describe('the header that says a body was over the limit', () => {
  it('means nothing to the gateway itself when a client sends it', async () => {
    const { token } = await withHousehold(gateway, `early-${Math.random()}@x.test`);
    const me = await gateway.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { ...bearer(token), 'x-body-over-limit': '1' },
    });
    expect(me.statusCode).toBe(200);
  });
});
