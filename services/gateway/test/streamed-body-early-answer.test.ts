// A member's body that streams because the gateway holds as many bodies as it may, to a service
// that answers without reading it: the client gets that answer (or 502) at once, not 408 at
// REQUEST_TIMEOUT_SECONDS because the unread rest stayed piped to nowhere.
import { connect, type Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, type GatewayApp, withHousehold } from './gateway-harness.ts';

let peer: FastifyInstance;
let gateway: GatewayApp;
let port = 0;

beforeAll(async () => {
  // A service that answers 404 before reading a byte of the body, and does not drain it.
  peer = Fastify();
  peer.removeAllContentTypeParsers();
  peer.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  peer.all('/*', async (_request, reply) =>
    reply.code(404).send({ error: 'NOT_FOUND', message: 'Item not found' }),
  );
  await peer.listen({ port: 0, host: '127.0.0.1' });
  gateway = await buildGateway({
    WARDROBE_BASE_URL: `http://127.0.0.1:${(peer.server.address() as { port: number }).port}`,
    REQUEST_TIMEOUT_SECONDS: '10',
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  port = (gateway.server.address() as { port: number }).port;
});
afterAll(async () => {
  await gateway.close();
  await peer.close();
});

/** Sends a PATCH's head and `sent` bytes of its body on a raw connection; `answer` is its status line and time. */
function patch(path: string, token: string, declared: number, sent: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const started = Date.now();
  let text = '';
  const answer = new Promise<{ status: string; ms: number }>((resolve) => {
    socket.on('data', (chunk) => {
      text += chunk.toString();
      if (text.includes('\r\n')) resolve({ status: text.split('\r\n')[0]!, ms: Date.now() - started });
    });
    socket.on('close', () =>
      resolve({ status: text.split('\r\n')[0] ?? '(none)', ms: Date.now() - started }),
    );
  });
  socket.write(
    `PATCH ${path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n\r\n`,
  );
  socket.write(Buffer.alloc(sent, 32));
  return { socket, answer };
}

describe('a streamed body the service answers without reading', () => {
  it('gets the answer at once, not a 408 at the request timeout', async () => {
    const { token, householdId } = await withHousehold(gateway, `streamed-${Math.random()}@x.test`);
    const path = `/api/v1/households/${householdId}/wardrobe/items/item_missing000`;
    // Eight bodies of which 1,048,000 bytes have arrived: this address's 8 MiB share is held.
    const holders = Array.from({ length: 8 }, () => patch(path, token, 1_048_001, 1_048_000));
    try {
      await new Promise((r) => setTimeout(r, 1000));
      const { socket, answer } = patch(path, token, 900_000, 900_000);
      const { status, ms } = await answer;
      socket.destroy();
      expect(status).toMatch(/^HTTP\/1\.1 (404|502) /);
      expect(ms).toBeLessThan(5000);
    } finally {
      for (const holder of holders) holder.socket.destroy();
    }
  }, 30_000);
});
