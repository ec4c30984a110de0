import http from 'node:http';
import net from 'node:net';
import { EventSource } from 'eventsource';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FORWARD_RULES } from '../src/routes/proxy.ts';
import { bearer, buildGateway, type GatewayApp, login } from './gateway-harness.ts';

// A stand-in wardrobe/orchestrator: records what the gateway forwards.
let peer: FastifyInstance;
let peerUrl = '';
let gateway: GatewayApp;
let gatewayUrl = '';
const received: Array<{ url: string; headers: Record<string, unknown>; body: unknown }> = [];

beforeAll(async () => {
  peer = Fastify();
  peer.addContentTypeParser('image/png', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  peer.all('/api/v1/*', async (req, reply) => {
    received.push({ url: req.url, headers: { ...req.headers }, body: req.body });
    if (req.url.includes('/slow')) await new Promise((r) => setTimeout(r, 1500));
    if (req.url.includes('/stall')) {
      // Headers and half a JSON body, then nothing: a stuck peer.
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'application/json' });
      reply.raw.write('{"items":[');
      return;
    }
    if (req.url.includes('/missing'))
      return reply.code(404).send({ error: 'NOT_FOUND', message: 'Item not found' });
    // A half-started peer or a proxy on the way answering with its own page.
    if (req.url.includes('/oops')) return reply.code(500).type('text/html').send('<h1>oops!</h1>');
    if (req.url.includes('/gone-page')) return reply.code(404).type('text/plain').send('no such thing');
    if (req.url.includes('/stream')) {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
      reply.raw.write('id: 1\nevent: turn.started\ndata: {"n":1}\n\n');
      // Idle for longer than INTERNAL_API_TIMEOUT_SECONDS: the gateway must not cut the stream.
      setTimeout(() => reply.raw.end('id: 2\nevent: turn.completed\ndata: {"n":2}\n\n'), 1500);
      return;
    }
    const size = Buffer.isBuffer(req.body) ? req.body.length : null;
    return reply.code(req.method === 'POST' ? 201 : 200).send({ forwarded: true, size });
  });
  await peer.listen({ port: 0, host: '127.0.0.1' });
  const address = peer.server.address();
  peerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  gateway = await buildGateway({
    WARDROBE_BASE_URL: peerUrl,
    ORCHESTRATOR_BASE_URL: peerUrl,
    COMMERCE_BASE_URL: 'http://127.0.0.1:9',
    INTERNAL_API_TIMEOUT_SECONDS: '1',
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  const gAddress = gateway.server.address();
  gatewayUrl = `http://127.0.0.1:${typeof gAddress === 'object' && gAddress ? gAddress.port : 0}`;
});
afterAll(async () => {
  await gateway.close();
  await peer.close();
});

async function household(token: string) {
  return (
    await gateway.inject({
      method: 'POST',
      url: '/api/v1/households',
      headers: bearer(token),
      payload: { name: 'H' },
    })
  ).json().householdId as string;
}

describe('gateway forwarding', () => {
  it('forwards a member’s call unchanged with the peer token and the caller identity', async () => {
    const user = await login(gateway, 'fwd@x.test');
    const id = await household(user.token);
    const res = await gateway.inject({
      method: 'POST',
      url: `/api/v1/households/${id}/wardrobe/items?x=1`,
      headers: { ...bearer(user.token), 'x-user-id': 'usr_forged', 'x-request-id': 'rid-1' },
      payload: { category: 'TOP' },
    });
    expect(res.statusCode).toBe(201);
    const last = received.at(-1)!;
    expect(last.url).toBe(`/api/v1/households/${id}/wardrobe/items?x=1`);
    expect(last.headers).toMatchObject({
      'x-internal-token': 'dev-internal-token-wardrobe',
      'x-user-id': user.userId,
      'x-member-role': 'PARENT_GUARDIAN',
      'x-request-id': 'rid-1',
    });
    expect(last.headers.authorization).toBeUndefined();
    expect(last.body).toEqual({ category: 'TOP' });
  });

  it('checks membership before forwarding and passes peer errors through', async () => {
    const owner = await login(gateway, 'owner@x.test');
    const other = await login(gateway, 'other@x.test');
    const id = await household(owner.token);
    const before = received.length;
    const res = await gateway.inject({
      method: 'GET',
      url: `/api/v1/households/${id}/wardrobe/items`,
      headers: bearer(other.token),
    });
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'User is not a household member' });
    expect(received.length).toBe(before);
    const missing = await gateway.inject({
      method: 'GET',
      url: `/api/v1/households/${id}/wardrobe/items/missing`,
      headers: bearer(owner.token),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'NOT_FOUND', message: 'Item not found' });
    // An error that is not the envelope is a broken peer: 502 in the envelope, not its page.
    for (const [path, status] of [
      ['oops', 500],
      ['gone-page', 404],
    ] as const) {
      const broken = await gateway.inject({
        method: 'GET',
        url: `/api/v1/households/${id}/wardrobe/${path}`,
        headers: bearer(owner.token),
      });
      expect(broken.statusCode).toBe(502);
      expect(broken.json()).toEqual({
        error: 'UPSTREAM_ERROR',
        message: `wardrobe answered ${status} without a JSON error`,
      });
    }
  });

  it('answers 504 for a JSON reply that stalls mid-body instead of hanging the client', async () => {
    const user = await login(gateway, 'stall@x.test');
    const id = await household(user.token);
    const started = Date.now();
    // A JSON reply is read whole before it is sent: the client gets the envelope, not half a body.
    const res = await fetch(`${gatewayUrl}/api/v1/households/${id}/wardrobe/stall`, {
      headers: bearer(user.token),
    });
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ error: 'UPSTREAM_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers 502 for a peer that is down and 504 for one that is too slow', async () => {
    const user = await login(gateway, 'down@x.test');
    const id = await household(user.token);
    const down = await gateway.inject({
      method: 'GET',
      url: `/api/v1/households/${id}/offers`,
      headers: bearer(user.token),
    });
    expect(down.statusCode).toBe(502);
    expect(down.json()).toEqual({ error: 'UPSTREAM_ERROR', message: 'commerce is unreachable' });
    const slow = await gateway.inject({
      method: 'GET',
      url: `/api/v1/households/${id}/wardrobe/slow`,
      headers: bearer(user.token),
    });
    expect(slow.statusCode).toBe(504);
    expect(slow.json()).toEqual({
      error: 'UPSTREAM_TIMEOUT',
      message: 'wardrobe did not answer within 1000 ms',
    });
  });

  it('passes raw upload bytes through without a bearer token', async () => {
    const bytes = Buffer.alloc(3000, 7);
    const res = await fetch(`${gatewayUrl}/api/v1/uploads/households/h_1/img_1?sig=abc`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: bytes,
    });
    const body = await res.json();
    expect(body).toEqual({ forwarded: true, size: 3000 });
    expect(res.status).toBe(200);
  });

  it("forwards a recording's signed content link without a bearer token, and no other artifact path", async () => {
    const g = await buildGateway({ ARTIFACTS_AUDIT_BASE_URL: peerUrl, INTERNAL_API_TIMEOUT_SECONDS: '1' });
    try {
      const url = '/api/v1/households/h_1/artifacts/art_1/content?expires=9&signature=abc';
      const link = await g.inject({ method: 'GET', url });
      expect(link.statusCode).toBe(200);
      const forwarded = received.find((r) => r.url === url);
      expect(forwarded?.headers['x-user-id']).toBeUndefined();
      const other = await g.inject({ method: 'GET', url: '/api/v1/households/h_1/artifacts/art_1' });
      expect(other.statusCode).toBe(401);
      expect(received.some((r) => r.url === '/api/v1/households/h_1/artifacts/art_1')).toBe(false);
    } finally {
      await g.close();
    }
  });

  it('streams SSE through unbuffered and does not cut an idle stream', async () => {
    const user = await login(gateway, 'sse@x.test');
    const id = await household(user.token);
    const events: string[] = [];
    const es = new EventSource(`${gatewayUrl}/api/v1/households/${id}/orchestrator/missions/m1/stream`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, ...bearer(user.token) } }),
    });
    const firstAt = await new Promise<number>((resolve) =>
      es.addEventListener('turn.started', () => resolve(Date.now())),
    );
    events.push('turn.started');
    await new Promise<void>((resolve) =>
      es.addEventListener('turn.completed', (e) => {
        events.push(`turn.completed:${e.lastEventId}`);
        resolve();
      }),
    );
    es.close();
    expect(events).toEqual(['turn.started', 'turn.completed:2']);
    // The first event arrived before the peer finished: nothing was buffered.
    expect(Date.now() - firstAt).toBeGreaterThan(1000);
  });
});

/** Sends one raw request line to the gateway (fetch and inject normalise `..` away) and returns status and body. */
function rawRequest(
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const { port } = new URL(gatewayUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      const lines = Object.entries({ host: 'gw', connection: 'close', ...headers }).map(
        ([k, v]) => `${k}: ${v}`,
      );
      socket.write(`GET ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    });
    let out = '';
    socket.on('data', (d) => {
      out += d;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = out.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body });
    });
  });
}

describe('forwarded paths cannot change household on the way', () => {
  it.each([
    ['dot segments', '/wardrobe/../../{other}/wardrobe/items'],
    ['encoded dot segments', '/wardrobe/%2e%2e/%2E%2e/{other}/wardrobe/items'],
    ['encoded slashes around dots', '/wardrobe/..%2f..%2f{other}/wardrobe/items'],
    ['backslashes', '/wardrobe/..\\..\\{other}/wardrobe/items'],
    ['a single dot', '/wardrobe/./items'],
  ])('refuses %s with 400 before anything reaches the peer', async (_name, suffix) => {
    const owner = await login(gateway, 'trav-owner@x.test');
    const victim = await login(gateway, 'trav-victim@x.test');
    const mine = await household(owner.token);
    const other = await household(victim.token);
    const before = received.length;
    const res = await rawRequest(
      `/api/v1/households/${mine}${suffix.replace('{other}', other)}`,
      bearer(owner.token),
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      error: 'BAD_REQUEST',
      message: 'Path must not contain dot segments or backslashes',
    });
    expect(received.length).toBe(before);
  });

  it('refuses a signed-upload path that climbs out of /uploads (it would reach the peer with its token and no user)', async () => {
    const before = received.length;
    for (const path of [
      '/api/v1/uploads/../households/h_x/wardrobe/items',
      '/api/v1/uploads/%2e%2e/internal/x',
    ]) {
      const res = await rawRequest(path);
      expect(res.status).toBe(400);
    }
    expect(received.length).toBe(before);
  });

  it('forwards percent-encoded ids as the peer will decode them and keeps dots in the query', async () => {
    const user = await login(gateway, 'enc@x.test');
    const id = await household(user.token);
    const encoded = `%${id.charCodeAt(0).toString(16)}${id.slice(1)}`;
    const res = await rawRequest(
      `/api/v1/households/${encoded}/wardrobe/items?next=../../x`,
      bearer(user.token),
    );
    expect(res.status).toBe(200);
    expect(received.at(-1)?.url).toBe(`/api/v1/households/${encoded}/wardrobe/items?next=../../x`);
    // An encoded id of someone else's household is still checked against that household.
    const other = await household((await login(gateway, 'enc-other@x.test')).token);
    const foreign = await rawRequest(
      `/api/v1/households/%${other.charCodeAt(0).toString(16)}${other.slice(1)}/wardrobe/items`,
      bearer(user.token),
    );
    expect(foreign.status).toBe(403);
  });

  it('authenticates an absolute-form request line like any other', async () => {
    const res = await rawRequest(`http://gw/api/v1/households/h_any/wardrobe/items`);
    expect(res.status).toBe(401);
  });

  it('serves an absolute-form request line by its path, forwarded routes included (RFC 9112 §3.2.2)', async () => {
    const user = await login(gateway, 'absolute@x.test');
    const id = await household(user.token);
    const res = await rawRequest(
      `http://gw.example:8080/api/v1/households/${id}/wardrobe/items?x=1`,
      bearer(user.token),
    );
    expect(res.status).toBe(200);
    expect(received.at(-1)?.url).toBe(`/api/v1/households/${id}/wardrobe/items?x=1`);
    // The path is still checked against the caller's households, and climbing out is still refused.
    const other = await household((await login(gateway, 'absolute-other@x.test')).token);
    const before = received.length;
    expect(
      (await rawRequest(`HTTP://gw/api/v1/households/${other}/wardrobe/items`, bearer(user.token))).status,
    ).toBe(403);
    expect(
      (
        await rawRequest(
          `http://gw/api/v1/households/${id}/wardrobe/../../${other}/wardrobe/items`,
          bearer(user.token),
        )
      ).status,
    ).toBe(400);
    expect(received.length).toBe(before);
  });

  it('strips identity and voice-marking headers sent by a client, on public routes too', async () => {
    const user = await login(gateway, 'strip@x.test');
    const id = await household(user.token);
    await gateway.inject({
      method: 'POST',
      url: `/api/v1/households/${id}/orchestrator/missions/m1/chat`,
      headers: {
        ...bearer(user.token),
        'x-message-source': 'voice',
        'x-member-role': 'PARENT_GUARDIAN',
        'x-internal-token': 'guess',
      },
      payload: { message: 'hi' },
    });
    const chat = received.at(-1)!;
    expect(chat.headers['x-message-source']).toBeUndefined();
    expect(chat.headers['x-internal-token']).toBe('dev-internal-token-orchestrator');
    await fetch(`${gatewayUrl}/api/v1/uploads/households/h_1/img_1?sig=abc`, {
      headers: { 'x-user-id': 'usr_forged', 'x-member-role': 'PARENT_GUARDIAN', 'x-user-email': 'f@x.test' },
    });
    const upload = received.at(-1)!;
    expect(upload.headers['x-user-id']).toBeUndefined();
    expect(upload.headers['x-member-role']).toBeUndefined();
    expect(upload.headers['x-user-email']).toBeUndefined();
  });
});

describe('streaming through the gateway', () => {
  // A raw peer so that the test controls every byte and every socket.
  let raw: http.Server;
  let rawGateway: GatewayApp;
  let rawGatewayUrl = '';
  let open = 0;
  let upstreamClosed = 0;
  const upstreamHeaders: http.IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    raw = http.createServer((req, res) => {
      upstreamHeaders.push(req.headers);
      res.on('close', () => upstreamClosed++);
      const path = req.url ?? '';
      if (path.includes('/forever')) {
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
        const beat = setInterval(() => res.write(`data: ${Date.now()}\n\n`), 20);
        res.on('close', () => clearInterval(beat));
        return;
      }
      if (path.includes('/reset')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '100000' });
        res.write(Buffer.alloc(1000, 1));
        setTimeout(() => req.socket.destroy(), 30);
        return;
      }
      if (path.includes('/reset-sse')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: one\n\n');
        setTimeout(() => req.socket.destroy(), 30);
        return;
      }
      if (path.includes('/hop')) {
        res.writeHead(200, {
          'content-type': 'application/json',
          connection: 'x-upstream-hop',
          'x-upstream-hop': 'secret',
          'keep-alive': 'timeout=5',
          'x-kept': 'yes',
        });
        res.end('{"ok":true}');
        return;
      }
      if (path.includes('/chunked')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        for (let i = 0; i < 10; i++) res.write(Buffer.alloc(5000, i));
        res.end();
        return;
      }
      if (path.includes('/hung-sse')) {
        // One event, then nothing at all, not even a keep-alive: a hung peer.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('id: 1\ndata: one\n\n');
        return;
      }
      if (path.includes('/sse-with-length')) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'content-length': '11' });
        res.end('data: ok\n\n\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    raw.on('connection', (socket) => {
      open++;
      socket.on('close', () => open--);
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const address = raw.address();
    rawGateway = await buildGateway({
      VTO_BASE_URL: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
      INTERNAL_API_TIMEOUT_SECONDS: '1',
      UPSTREAM_STREAM_SILENCE_SECONDS: '1',
    });
    await rawGateway.listen({ port: 0, host: '127.0.0.1' });
    const g = rawGateway.server.address();
    rawGatewayUrl = `http://127.0.0.1:${typeof g === 'object' && g ? g.port : 0}`;
  });
  afterAll(async () => {
    await rawGateway.close();
    raw.closeAllConnections();
    await new Promise((resolve) => raw.close(resolve));
  });

  async function vtoPath(name: string) {
    const user = await login(rawGateway, `${name}@x.test`);
    const id = (
      await rawGateway.inject({
        method: 'POST',
        url: '/api/v1/households',
        headers: bearer(user.token),
        payload: { name: 'H' },
      })
    ).json().householdId as string;
    return { url: `${rawGatewayUrl}/api/v1/households/${id}/vto/jobs/${name}`, headers: bearer(user.token) };
  }

  it('drops hop-by-hop headers both ways, including those named by Connection', async () => {
    const { url, headers } = await vtoPath('hop');
    const res = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(
        url,
        {
          headers: {
            ...headers,
            connection: 'x-client-hop',
            'x-client-hop': 'secret',
            te: 'trailers',
            'proxy-authorization': 'Basic x',
          },
        },
        resolve,
      ),
    );
    res.resume();
    expect(res.headers['x-upstream-hop']).toBeUndefined();
    expect(res.headers['keep-alive']).not.toBe('timeout=5');
    expect(res.headers['x-kept']).toBe('yes');
    const up = upstreamHeaders.at(-1)!;
    expect(up['x-client-hop']).toBeUndefined();
    expect(up['proxy-authorization']).toBeUndefined();
    expect(up.te).toBeUndefined();
    expect(up.authorization).toBeUndefined();
  });

  it('passes a chunked body through whole and drops a content-length on an event stream', async () => {
    const chunked = await vtoPath('chunked');
    const res = await fetch(chunked.url, { headers: chunked.headers });
    expect((await res.arrayBuffer()).byteLength).toBe(50_000);
    const sse = await vtoPath('sse-with-length');
    const stream = await fetch(sse.url, { headers: { ...sse.headers, accept: 'text/event-stream' } });
    expect(stream.headers.get('content-length')).toBeNull();
    expect(await stream.text()).toBe('data: ok\n\n\n');
  });

  it('survives a peer that resets the connection mid-body', async () => {
    for (const name of ['reset', 'reset-sse']) {
      const { url, headers } = await vtoPath(name);
      const res = await fetch(url, { headers });
      expect(res.status).toBe(200);
      await expect(res.arrayBuffer()).rejects.toThrow();
    }
    // Still serving.
    const health = await fetch(`${rawGatewayUrl}/health`);
    expect(health.status).toBe(200);
  });

  it('ends an event stream whose peer went silent (no keep-alive), so the client reconnects', async () => {
    const { url, headers } = await vtoPath('hung-sse');
    const closedBefore = upstreamClosed;
    const res = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' } });
    expect(res.status).toBe(200);
    // Ends cleanly after UPSTREAM_STREAM_SILENCE_SECONDS with what was sent.
    expect(await res.text()).toBe('id: 1\ndata: one\n\n');
    await vi.waitFor(() => expect(upstreamClosed).toBe(closedBefore + 1), { timeout: 2000, interval: 20 });
  }, 10_000);

  it('keeps a stream whose peer keeps talking open past the silence limit', async () => {
    const { url, headers } = await vtoPath('forever');
    const controller = new AbortController();
    const res = await fetch(url, {
      headers: { ...headers, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    const started = Date.now();
    let ended = false;
    while (Date.now() - started < 1600) {
      const { done } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
    }
    controller.abort();
    expect(ended).toBe(false);
  });

  it('aborts the upstream call when the client goes away from an endless stream', async () => {
    const { url, headers } = await vtoPath('forever');
    const closedBefore = upstreamClosed;
    await new Promise<void>((resolve, reject) => {
      const req = http.get(url, { headers: { ...headers, accept: 'text/event-stream' } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => {});
      setTimeout(() => reject(new Error('no data')), 2000);
    });
    await vi.waitFor(() => expect(upstreamClosed).toBe(closedBefore + 1), { timeout: 2000, interval: 20 });
    await vi.waitFor(() => expect(open).toBe(0), { timeout: 2000, interval: 20 });
  });

  it('a read that asked for no stream, answered with one that then hangs, is cut after the peer timeout', async () => {
    const address = raw.address();
    // The silence allowed to a stream is far longer than the wait for a peer here.
    const patient = await buildGateway({
      VTO_BASE_URL: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
      INTERNAL_API_TIMEOUT_SECONDS: '1',
      UPSTREAM_STREAM_SILENCE_SECONDS: '30',
    });
    await patient.listen({ port: 0, host: '127.0.0.1' });
    try {
      const g = patient.server.address();
      const base = `http://127.0.0.1:${typeof g === 'object' && g ? g.port : 0}`;
      const user = await login(patient, 'patient@x.test');
      const id = (
        await patient.inject({
          method: 'POST',
          url: '/api/v1/households',
          headers: bearer(user.token),
          payload: { name: 'H' },
        })
      ).json().householdId as string;
      const url = `${base}/api/v1/households/${id}/vto/jobs/hung-sse`;
      const started = Date.now();
      const plain = await fetch(url, { headers: { ...bearer(user.token), accept: 'application/json' } });
      await plain.text().catch(() => '');
      // Cut at the 1 s peer timeout, not at the 30 s stream silence.
      expect(Date.now() - started).toBeLessThan(5000);
      // Asked for, the same answer is a stream: open past the peer timeout.
      const controller = new AbortController();
      const stream = await fetch(url, {
        headers: { ...bearer(user.token), accept: 'text/event-stream' },
        signal: controller.signal,
      });
      const reader = stream.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe('id: 1\ndata: one\n\n');
      const next = await Promise.race([
        reader.read().then(() => 'ended'),
        new Promise((resolve) => setTimeout(() => resolve('open'), 2000)),
      ]);
      expect(next).toBe('open');
      controller.abort();
    } finally {
      await patient.close();
    }
  }, 15_000);
});

describe('membership on every forwarded path', () => {
  it('answers 403 to a non-member and 404 for an unknown household on each rule, reaching no peer', async () => {
    const owner = await login(gateway, 'rules-owner@x.test');
    const outsider = await login(gateway, 'rules-outsider@x.test');
    const id = await household(owner.token);
    const before = received.length;
    for (const rule of FORWARD_RULES) {
      for (const method of rule.methods) {
        const path = (householdId: string) =>
          rule.url.replace(':id', householdId).replace(/:\w+/g, 'x_1').replace('*', 'items/x_1');
        const foreign = await gateway.inject({ method, url: path(id), headers: bearer(outsider.token) });
        expect([rule.url, method, foreign.statusCode]).toEqual([rule.url, method, 403]);
        expect(foreign.json()).toEqual({ error: 'FORBIDDEN', message: 'User is not a household member' });
        const unknown = await gateway.inject({ method, url: path('h_nope'), headers: bearer(owner.token) });
        expect([rule.url, method, unknown.statusCode]).toEqual([rule.url, method, 404]);
        const anonymous = await gateway.inject({ method, url: path(id) });
        expect([rule.url, method, anonymous.statusCode]).toEqual([rule.url, method, 401]);
      }
    }
    expect(received.length).toBe(before);
  });
});
