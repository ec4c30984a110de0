// A member's body read slowly (within REQUEST_TIMEOUT_SECONDS) still reaches a healthy peer as a
// fresh request: the gateway stamps the internal call's x-request-sent-at when it sends it, not
// when the body began to arrive, or the peer refused it 504 unrun as long given up on.
import http from 'node:http';
import { createServiceApp, type ServiceApp } from '@hs/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildGateway, type GatewayApp, login } from './gateway-harness.ts';

let peer: ServiceApp;
let gateway: GatewayApp;
let ran = 0;
let port = 0;
let token = '';
let household = '';

beforeAll(async () => {
  peer = await createServiceApp({ service: 'wardrobe', description: 'peer', logger: false });
  peer.all('/api/v1/*', async () => {
    ran++;
    return { ok: true };
  });
  await peer.listen({ port: 0, host: '127.0.0.1' });
  const peerUrl = `http://127.0.0.1:${(peer.server.address() as { port: number }).port}`;
  gateway = await buildGateway({ WARDROBE_BASE_URL: peerUrl, INTERNAL_API_TIMEOUT_SECONDS: '1' });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  port = (gateway.server.address() as { port: number }).port;
  token = (await login(gateway, 'slow-uplink@x.test')).token;
  household = (
    await gateway.inject({
      method: 'POST',
      url: '/api/v1/households',
      headers: bearer(token),
      payload: { name: 'H' },
    })
  ).json().householdId;
});
afterAll(async () => {
  await gateway.close();
  await peer.close();
});

/** A PATCH whose body's end arrives `delayMs` after its start. */
function patchSlowly(delayMs: number) {
  const body = JSON.stringify({ name: 'shirt' });
  return new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'PATCH',
        path: `/api/v1/households/${household}/wardrobe/items/i1`,
        headers: {
          ...bearer(token),
          'content-type': 'application/json',
          'content-length': String(body.length),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 5));
    setTimeout(() => req.end(body.slice(5)), delayMs);
  });
}

describe('a slow upload through the gateway', () => {
  it('reaches the peer and runs, though its body took longer than the internal timeout and the clocks allowance', async () => {
    expect(await patchSlowly(10)).toBe(200);
    expect(ran).toBe(1);
    expect(await patchSlowly(3500)).toBe(200);
    expect(ran).toBe(2);
  });
});
