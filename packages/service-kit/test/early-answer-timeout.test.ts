// A request answered while its body is still arriving (the gateway's 504 for a peer that did not
// answer in time, any early refusal) must not get a second answer when its body then outlasts
// REQUEST_TIMEOUT_SECONDS: the client would read that 408 as the answer to its next request.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';

let app: ServiceApp;
let port = 0;

beforeAll(async () => {
  app = await createServiceApp({ service: 'gateway', description: 'test', requestTimeoutMs: 1000 });
  // Like a forwarded upload: the body is a stream the route may answer before it has all arrived.
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
  app.post('/api/v1/uploads', async (_request, reply) =>
    reply.code(504).send({ error: 'UPSTREAM_TIMEOUT', message: 'wardrobe did not answer within 10000 ms' }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => app.close());

describe('a slow body answered early', () => {
  it('gets exactly one answer, then the connection closes at the request timeout', async () => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    socket.on('error', () => undefined);
    socket.write(
      'POST /api/v1/uploads HTTP/1.1\r\nhost: x\r\ncontent-type: application/octet-stream\r\ncontent-length: 100000\r\n\r\n',
    );
    // 10 bytes every 100 ms: far slower than the 1 s request timeout allows for 100 KB.
    const trickle = setInterval(() => socket.writable && socket.write('0123456789'), 100);
    await new Promise((resolve) => socket.once('close', resolve));
    clearInterval(trickle);
    expect(received.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 504']);
  }, 8000);
});
