// A service may answer a body it has not read: 404 or 403 from a check made before the body
// (decisions: existence and role before the body), 413 from the declared length. Streamed up
// as it arrived, such a body raced that answer: the service closed the connection under the
// upload, and the client got 502 "unreachable" (or a reset on its next request) for about a
// third of a 900 KB chat message to a mission that does not exist.

import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { createServiceApp, notFound, type ServiceApp } from '@hs/service-kit';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildGateway, type GatewayApp, withHousehold } from './gateway-harness.ts';

let peer: ServiceApp;
let gateway: GatewayApp;
let gatewayUrl = '';
let reached = 0;
const arrivals: Array<'held' | 'streamed'> = [];

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
        // How each body came: held whole by the gateway (a length) or streamed as it arrived.
        arrivals.push(req.headers['transfer-encoding'] === 'chunked' ? 'streamed' : 'held');
        if ((req.params as { mId: string }).mId === 'msn_missing') throw notFound('Mission not found');
      },
    },
    async () => {
      reached++;
      return { ok: true };
    },
  );
  // A create that answers JSON whatever the client accepts.
  let items = 0;
  peer.post('/api/v1/households/:id/wardrobe/items', async (_req, reply) =>
    reply.code(201).send({ itemId: `item_${++items}` }),
  );
  await peer.listen({ port: 0, host: '127.0.0.1' });
  const peerUrl = `http://127.0.0.1:${(peer.server.address() as { port: number }).port}`;
  gateway = await buildGateway({
    ORCHESTRATOR_BASE_URL: peerUrl,
    WARDROBE_BASE_URL: peerUrl,
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
  it('leaves a path the service has no route for a 404, as with a small body', async () => {
    const { token, householdId: id } = await withHousehold(gateway, `noroute-${Math.random()}@x.test`);
    const res = await request(`${gatewayUrl}/api/v1/households/${id}/orchestrator/no-such-route`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'x'.repeat(2_000_000) }),
    });
    expect(res.statusCode).toBe(404);
    expect(await res.body.json()).toMatchObject({ error: 'NOT_FOUND' });
  });

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

/** A raw connection that sends a request's head and the first `sent` bytes of its body, then holds. */
async function holdBody(
  url: string,
  path: string,
  token: string,
  declared: number,
  sent: number,
): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    `POST ${path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n\r\n`,
  );
  socket.write(`{"message":"${'x'.repeat(Math.max(0, sent - 12))}`);
  socket.on('error', () => {});
  return socket;
}

describe('bodies of every type, and the room the gateway keeps for them', () => {
  it('holds a body of any type too, so a missing resource answers 404 and not 502, with or without a key', async () => {
    const { token, householdId: id } = await withHousehold(gateway, `types-${Math.random()}@x.test`);
    const client = new Agent({ connections: 1 });
    const statuses: number[] = [];
    try {
      for (let i = 0; i < 8; i++)
        for (const type of ['text/plain', 'application/octet-stream'])
          for (const [bytes, key] of [
            [900_000, undefined],
            [2_000_000, undefined],
            [2_000_000, `key-${type}-${i}`],
          ] as const) {
            const res = await request(
              `${gatewayUrl}/api/v1/households/${id}/orchestrator/missions/msn_missing/chat`,
              {
                method: 'POST',
                dispatcher: client,
                headers: {
                  ...bearer(token),
                  'content-type': type,
                  ...(key ? { 'idempotency-key': key } : {}),
                },
                body: Buffer.alloc(bytes, 120),
              },
            );
            statuses.push(res.statusCode);
            await res.body.dump();
          }
    } finally {
      await client.close();
    }
    expect(statuses).toEqual(Array.from({ length: 48 }, () => 404));
  }, 60_000);

  it('counts what a client has sent, not what it declares: bodies that hold a byte leave room for others', async () => {
    const { token, householdId: id } = await withHousehold(gateway, `declared-${Math.random()}@x.test`);
    const path = `/api/v1/households/${id}/orchestrator/missions/msn_missing/chat`;
    // Twelve bodies declaring 1 MB, a few bytes sent: 12 MB declared, more than one address may hold.
    const holders = await Promise.all(
      Array.from({ length: 12 }, () => holdBody(gatewayUrl, path, token, 1_000_000, 20)),
    );
    const client = new Agent({ connections: 1 });
    const statuses: number[] = [];
    arrivals.length = 0;
    try {
      for (let i = 0; i < 10; i++) {
        const res = await request(`${gatewayUrl}${path}`, {
          method: 'POST',
          dispatcher: client,
          headers: { ...bearer(token), 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'x'.repeat(900_000) }),
        });
        statuses.push(res.statusCode);
        await res.body.dump();
      }
    } finally {
      for (const socket of holders) socket.destroy();
      await client.close();
    }
    expect(statuses).toEqual(Array.from({ length: 10 }, () => 404));
    expect(arrivals).toEqual(Array.from({ length: 10 }, () => 'held'));
  }, 60_000);

  it('refuses a keyed body 503 once the client holds its share, instead of reading it beyond the budget', async () => {
    const { token, householdId: id } = await withHousehold(gateway, `budget-${Math.random()}@x.test`);
    const path = `/api/v1/households/${id}/orchestrator/missions/msn_real/chat`;
    // Eight bodies of which 1,000,000 bytes each have arrived: 8 MB held for this address.
    const holders = await Promise.all(
      Array.from({ length: 8 }, () => holdBody(gatewayUrl, path, token, 1_040_000, 1_000_000)),
    );
    try {
      // Held bytes are counted as they arrive: wait until the gateway has them all.
      await new Promise((r) => setTimeout(r, 500));
      const keyed = await request(`${gatewayUrl}${path}`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json', 'idempotency-key': 'held-full' },
        body: JSON.stringify({ message: 'x'.repeat(900_000) }),
      });
      expect(keyed.statusCode).toBe(503);
      expect(keyed.headers['retry-after']).toBe('1');
      expect(await keyed.body.json()).toEqual({
        error: 'SERVICE_UNAVAILABLE',
        message: 'The gateway is holding as many request bodies as it may; try again in a moment',
      });
      // Without a key the body streams as it arrives; a service answering before reading it is
      // answered at once (its 404, or 502 when the answer raced the upload), not 408 at the timeout.
      const started = Date.now();
      const unkeyed = await request(
        `${gatewayUrl}/api/v1/households/${id}/orchestrator/missions/msn_missing/chat`,
        {
          method: 'POST',
          headers: { ...bearer(token), 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'x'.repeat(900_000) }),
        },
      );
      await unkeyed.body.dump();
      expect([404, 502]).toContain(unkeyed.statusCode);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      for (const socket of holders) socket.destroy();
    }
    // Room again: the same keyed request goes through.
    await new Promise((r) => setTimeout(r, 200));
    const again = await request(`${gatewayUrl}${path}`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json', 'idempotency-key': 'held-full' },
      body: JSON.stringify({ message: 'x'.repeat(900_000) }),
    });
    expect(again.statusCode).toBe(200);
    await again.body.dump();
  }, 60_000);

  it('keeps a keyed create that asked for an event stream but got JSON, and replays it', async () => {
    const { token, householdId: id } = await withHousehold(gateway, `accept-${Math.random()}@x.test`);
    const create = () =>
      request(`${gatewayUrl}/api/v1/households/${id}/wardrobe/items`, {
        method: 'POST',
        headers: {
          ...bearer(token),
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'idempotency-key': 'sse-create',
        },
        body: JSON.stringify({ name: 'Coat' }),
      });
    const first = await create();
    expect(first.statusCode).toBe(201);
    const made = await first.body.json();
    const retry = await create();
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await retry.body.json()).toEqual(made);
  });
});
