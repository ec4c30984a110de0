// What Node refuses before Fastify sees a request (headers too large, a malformed request line,
// a body that takes longer than REQUEST_TIMEOUT_SECONDS) is answered in the error envelope too.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';

let app: ServiceApp;
let port = 0;

beforeAll(async () => {
  app = await createServiceApp({ service: 'commerce', description: 'test', requestTimeoutMs: 1000 });
  app.post('/api/v1/things', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(() => app.close());

/** Writes `parts` on a fresh connection and returns everything the server sends until it closes. */
async function raw(...parts: string[]): Promise<{ status: number; headers: string; body: unknown }> {
  const socket = net.connect(port, '127.0.0.1');
  let out = '';
  socket.on('data', (chunk) => {
    out += chunk.toString();
  });
  for (const part of parts) socket.write(part);
  await new Promise((resolve) => socket.once('close', resolve));
  const [head = '', body = ''] = out.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

describe('errors Node raises before a request exists', () => {
  it('answers headers over the size limit with 431 in the envelope', async () => {
    const res = await raw(`GET /health HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.body).toEqual({ error: 'HEADERS_TOO_LARGE', message: 'Request headers are too large' });
    expect(res.headers).toMatch(/x-request-id: [0-9a-f-]{36}/);
  });

  it('answers a malformed request with 400 in the envelope', async () => {
    const res = await raw('NONSENSE\r\n\r\n');
    expect(res).toMatchObject({
      status: 400,
      body: { error: 'BAD_REQUEST', message: 'Malformed HTTP request' },
    });
  });

  // The test's own time limit is the point: Node used to check timeouts every 30 s.
  it('cuts a body still arriving after REQUEST_TIMEOUT_SECONDS with 408 in the envelope', async () => {
    const res = await raw(
      'POST /api/v1/things HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n',
      '{"name":',
    );
    expect(res.status).toBe(408);
    expect(res.body).toEqual({
      error: 'REQUEST_TIMEOUT',
      message: 'The request did not arrive within REQUEST_TIMEOUT_SECONDS',
    });
  }, 8000);
});
