// A client uploading at a steady but slow pace through the gateway gets the peer's answer, not a
// 504 because the whole upload took longer than INTERNAL_API_TIMEOUT_SECONDS; a peer that
// doesn't answer once it has the bytes is still a 504.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, type GatewayApp } from './gateway-harness.ts';

let peer: FastifyInstance;
let gateway: GatewayApp;
let gatewayUrl = '';

beforeAll(async () => {
  peer = Fastify();
  peer.addContentTypeParser('image/png', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  peer.put('/api/v1/uploads/*', async (req, reply) => {
    if (req.url.includes('/hung')) return new Promise(() => undefined);
    return reply.send({ size: (req.body as Buffer).length });
  });
  await peer.listen({ port: 0, host: '127.0.0.1' });
  gateway = await buildGateway({
    WARDROBE_BASE_URL: `http://127.0.0.1:${(peer.server.address() as { port: number }).port}`,
    INTERNAL_API_TIMEOUT_SECONDS: '1',
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await gateway.close();
  await peer.close();
});

/** A PUT whose body arrives in `chunks` pieces of 1 KB, one every `gapMs` (250 ms). */
function slowUpload(path: string, chunks: number, gapMs = 250) {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === chunks) return controller.close();
      if (sent > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
      sent++;
      controller.enqueue(new Uint8Array(1024).fill(7));
    },
  });
  return fetch(`${gatewayUrl}${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'image/png' },
    body,
    duplex: 'half',
  } as RequestInit);
}

describe('forwarding a slow upload', () => {
  it('waits for the peer from the last byte sent, not from the first (8 KB over about 2 s, timeout 1 s)', async () => {
    const res = await slowUpload('/api/v1/uploads/households/h_1/img_1?sig=abc', 8);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ size: 8192 });
  }, 10_000);

  it('does not blame the peer while the client pauses mid-upload (a 2.5 s pause, timeout 1 s)', async () => {
    const res = await slowUpload('/api/v1/uploads/households/h_1/img_2?sig=abc', 3, 2500);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ size: 3072 });
  }, 15_000);

  it('still answers 504 when the peer has every byte and does not answer', async () => {
    const res = await slowUpload('/api/v1/uploads/households/h_1/hung?sig=abc', 2);
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({
      error: 'UPSTREAM_TIMEOUT',
      message: 'wardrobe did not answer within 1000 ms',
    });
  }, 10_000);
});
