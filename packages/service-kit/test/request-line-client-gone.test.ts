// One request line per request, with the request's id, also when its client leaves first (an
// event stream closed, a call abandoned before its answer) and when Node answers it itself (408).
import http from 'node:http';
import net from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';
import { forbidden } from '../src/errors.ts';
import { endClientClosed } from '../src/request-line.ts';

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});
const linesOf = (id: string) => lines.filter((l) => l.reqId === id);
const requestLinesOf = (id: string) => linesOf(id).filter((l) => l.msg === 'request');

let app: ServiceApp;
let port = 0;
const finishedTurns: string[] = [];

beforeAll(async () => {
  app = await createServiceApp({
    service: 'orchestrator',
    description: 'test',
    logger: pino({ level: 'info' }, sink),
    requestTimeoutMs: 1000,
  });
  // Like the orchestrator's mission stream: the route takes the socket over and never ends it.
  app.get('/api/v1/missions/:mId/stream', async (request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': request.id });
    reply.raw.write('retry: 1000\n\n');
  });
  // Like the gateway's forwarded stream: a reply streamed through Fastify, never ending.
  app.get('/api/v1/missions/:mId/forwarded', async (_request, reply) => {
    const body = new PassThrough();
    body.write('retry: 1000\n\n');
    return reply.type('text/event-stream').send(body);
  });
  // Like a chat turn: the answer takes a while, and its client may not wait for it.
  app.post('/api/v1/missions/:mId/chat', async (request) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    finishedTurns.push(request.id);
    return { ok: true };
  });
  // Like the gateway giving up on a forward whose client left: hijacked, nothing sent.
  app.get('/api/v1/abandoned', async (request, reply) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    reply.hijack();
    endClientClosed(request, reply, { peer: 'orchestrator' });
    return reply;
  });
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
  app.post('/api/v1/uploads', async (request) => {
    for await (const _chunk of request.body as AsyncIterable<Buffer>);
    return { ok: true };
  });
  app.post(
    '/api/v1/refused',
    { onRequest: async () => Promise.reject(forbidden('Not yours')) },
    async () => ({}),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => app.close());

/** Opens a GET stream on a connection of its own, reads its first bytes, then closes it. */
async function openAndClose(path: string, id: string): Promise<number> {
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, headers: { 'x-request-id': id } });
    req.on('error', () => undefined);
    req.on('response', (res) => {
      res.once('data', () => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
    });
    setTimeout(() => reject(new Error('no stream')), 3000);
  });
  return status;
}

async function metrics(): Promise<string> {
  return (await app.inject({ method: 'GET', url: '/metrics' })).body;
}

describe('a stream its client closes', () => {
  it('is logged once, with the 200 it was sent and clientClosed, when the route took the socket over', async () => {
    expect(await openAndClose('/api/v1/missions/m_1/stream?after=3', 'sse-hijacked-1')).toBe(200);
    await vi.waitFor(() => expect(requestLinesOf('sse-hijacked-1')).toHaveLength(1), { timeout: 3000 });
    expect(requestLinesOf('sse-hijacked-1')[0]).toMatchObject({
      method: 'GET',
      url: '/api/v1/missions/m_1/stream',
      route: '/api/v1/missions/:mId/stream',
      statusCode: 200,
      clientClosed: true,
      durationMs: expect.any(Number),
    });
    expect(await metrics()).toMatch(
      /http_requests_total\{method="GET",route="\/api\/v1\/missions\/:mId\/stream",status="200"\} 1\n/,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(requestLinesOf('sse-hijacked-1')).toHaveLength(1);
  });

  it('is logged once when the stream went through Fastify (a forwarded stream)', async () => {
    expect(await openAndClose('/api/v1/missions/m_2/forwarded', 'sse-forwarded-1')).toBe(200);
    await vi.waitFor(() => expect(requestLinesOf('sse-forwarded-1')).toHaveLength(1), { timeout: 3000 });
    expect(requestLinesOf('sse-forwarded-1')[0]).toMatchObject({
      method: 'GET',
      route: '/api/v1/missions/:mId/forwarded',
      statusCode: 200,
      clientClosed: true,
    });
    expect(await metrics()).toMatch(/route="\/api\/v1\/missions\/:mId\/forwarded",status="200"\} 1\n/);
  });
});

describe('a call its client leaves before the answer', () => {
  it('is logged once the route has answered, with that status, its whole duration and clientClosed', async () => {
    const abort = new AbortController();
    const call = fetch(`http://127.0.0.1:${port}/api/v1/missions/m_3/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'chat-left-1' },
      body: JSON.stringify({ message: 'hello' }),
      signal: abort.signal,
    });
    setTimeout(() => abort.abort(), 150);
    await expect(call).rejects.toThrow();
    await vi.waitFor(() => expect(finishedTurns).toContain('chat-left-1'), { timeout: 3000 });
    await vi.waitFor(() => expect(requestLinesOf('chat-left-1')).toHaveLength(1), { timeout: 3000 });
    const [line] = requestLinesOf('chat-left-1');
    expect(line).toMatchObject({
      method: 'POST',
      route: '/api/v1/missions/:mId/chat',
      statusCode: 200,
      clientClosed: true,
    });
    expect(line!.durationMs).toBeGreaterThanOrEqual(350);
  });

  it('is logged once with 499 when the route gives up on it (hijacked, nothing sent)', async () => {
    const abort = new AbortController();
    const call = fetch(`http://127.0.0.1:${port}/api/v1/abandoned`, {
      headers: { 'x-request-id': 'abandoned-1' },
      signal: abort.signal,
    });
    setTimeout(() => abort.abort(), 100);
    await expect(call).rejects.toThrow();
    await vi.waitFor(() => expect(requestLinesOf('abandoned-1')).toHaveLength(1), { timeout: 3000 });
    const line = requestLinesOf('abandoned-1')[0]!;
    expect(line).toMatchObject({ method: 'GET', statusCode: 499, clientClosed: true, peer: 'orchestrator' });
    // One `service` key, and the line is the request line (no separate message without its fields).
    expect(Object.keys(line).filter((k) => k === 'service')).toHaveLength(0);
    expect(linesOf('abandoned-1')).toHaveLength(1);
  });
});

/** Writes `head` on a raw connection, trickles body bytes, and resolves with what came back. */
function slowUpload(head: string, trickle = true): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.write(head);
    const timer = trickle ? setInterval(() => socket.writable && socket.write('0123456789'), 100) : undefined;
    socket.once('close', () => {
      clearInterval(timer);
      resolve(received);
    });
  });
}

describe('answers Node gives itself', () => {
  it('a 408 for a body too slow keeps the client’s request id, on the answer and on its one line', async () => {
    const received = await slowUpload(
      'POST /api/v1/uploads HTTP/1.1\r\nhost: x\r\nx-request-id: slow-body-1\r\n' +
        'content-type: application/octet-stream\r\ncontent-length: 100000\r\n\r\n',
    );
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(received).toMatch(/\r\nx-request-id: slow-body-1\r\n/i);
    await vi.waitFor(() => expect(requestLinesOf('slow-body-1')).toHaveLength(1), { timeout: 2000 });
    expect(requestLinesOf('slow-body-1')[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/uploads',
      statusCode: 408,
      code: 'ERR_HTTP_REQUEST_TIMEOUT',
      durationMs: expect.any(Number),
    });
    // The route reading the cut body fails afterwards: that is no second request line.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(requestLinesOf('slow-body-1')).toHaveLength(1);
    expect(lines.filter((l) => l.msg === 'client error' && l.statusCode === 408)).toEqual([]);
  }, 8000);

  it('a 431 for headers too large carries the client’s request id when it came whole', async () => {
    const before = lines.length;
    const received = await slowUpload(
      `GET /api/v1/missions/m_1/forwarded HTTP/1.1\r\nhost: x\r\nx-request-id: huge-headers-1\r\nx-filler: ${'a'.repeat(20_000)}\r\n\r\n`,
      false,
    );
    expect(received).toMatch(/^HTTP\/1\.1 431 /);
    expect(received).toMatch(/\r\nx-request-id: huge-headers-1\r\n/i);
    await vi.waitFor(() => expect(linesOf('huge-headers-1')).toHaveLength(1), { timeout: 2000 });
    expect(linesOf('huge-headers-1')[0]).toMatchObject({ statusCode: 431, code: 'HPE_HEADER_OVERFLOW' });
    expect(lines.slice(before).filter((l) => l.statusCode === 431)).toHaveLength(1);
  });

  it('a request refused before its body arrived gets no second line when the body then times out', async () => {
    const received = await slowUpload(
      'POST /api/v1/refused HTTP/1.1\r\nhost: x\r\nx-request-id: refused-early-1\r\n' +
        'content-type: application/octet-stream\r\ncontent-length: 100000\r\n\r\n',
    );
    expect(received.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 403']);
    // The connection closed at the request timeout; a late line would be written by now.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(requestLinesOf('refused-early-1')).toHaveLength(1);
    expect(requestLinesOf('refused-early-1')[0]).toMatchObject({ statusCode: 403 });
    expect(lines.filter((l) => l.msg === 'client error' && l.statusCode === 408)).toEqual([]);
  }, 8000);
});
