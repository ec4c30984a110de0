import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_REPLY_BYTES } from '../src/adapters/forward.ts';
import { MAX_KEPT_REPLY_BYTES } from '../src/adapters/idempotent-forward.ts';
import { bearer, buildGateway, type GatewayApp, login } from './gateway-harness.ts';

// A stand-in wardrobe/artifacts-audit that fails the ways a broken or half-started peer does.
// The last path segment names the fault; `healthy` answers a create as the real service would.
let peer: http.Server;
let gateway: GatewayApp;
let gatewayUrl = '';
const writes: string[] = [];
const timers = new Set<NodeJS.Timeout>();
let healthy = false;

function every(ms: number, fn: () => void): NodeJS.Timeout {
  const t = setInterval(fn, ms);
  timers.add(t);
  return t;
}

beforeAll(async () => {
  peer = http.createServer((req, res) => {
    req.resume();
    const fault = (req.url ?? '').split('?')[0]?.split('/').pop() ?? '';
    if (req.method === 'POST') writes.push(fault);
    if (healthy || fault === 'ok') {
      res.writeHead(201, { 'content-type': 'application/json', etag: '"v1"' });
      res.end(JSON.stringify({ itemId: `w_${writes.length}` }));
      return;
    }
    switch (fault) {
      case 'html-200': // a proxy's page on the peer's port
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>starting…</html>');
        return;
      case 'bad-json':
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end('{"itemId":');
        return;
      case 'audit': {
        // The ledger's page for a household, holding an entry of another one.
        const entry = (householdId: string, seq: number) => ({
          eventId: `aud_${seq}`,
          householdId,
          missionId: null,
          category: 'SYSTEM',
          severity: 'INFO',
          action: 'X',
          detail: {},
          sourceService: 'gateway',
          actorId: null,
          targetType: null,
          targetId: null,
          createdAt: '2026-01-01T00:00:00.000Z',
          seq,
          prevHash: 'a',
          hash: 'b',
        });
        const own = decodeURIComponent((req.url ?? '').split('/')[4] ?? '');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            items: [entry(own, 2), entry('h_someone_else', 1)],
            total: 2,
            limit: 50,
            offset: 0,
          }),
        );
        return;
      }
      case 'redirect': // a proxy pointing the client elsewhere
        res.writeHead(302, { location: 'http://127.0.0.1:9/steal', 'content-type': 'application/json' });
        res.end('{}');
        return;
      case 'bare-500': // JSON, but not the envelope: a stack where a message should be
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"foo":"bar","stack":"Error at /srv/x.js:1"}');
        return;
      case 'peer-headers': // an answer carrying headers that are the gateway's to set, or secret
        res.writeHead(200, {
          'content-type': 'application/json',
          'set-cookie': 'session=evil; Domain=.example.com',
          'access-control-allow-origin': '*',
          'x-internal-token': 'leak',
          etag: '"v7"',
        });
        res.end('{"items":[]}');
        return;
      case 'busy-503': // a store locked for a moment: come back in 2 s
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' });
        res.end('{"error":"SERVICE_UNAVAILABLE","message":"Storage is busy (SQLITE_BUSY); try again later"}');
        return;
      case 'html-500':
        res.writeHead(500, { 'content-type': 'text/html' });
        res.end('<h1>oops!</h1>');
        return;
      case 'reset':
        res.writeHead(201, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"itemId":"w_');
        setTimeout(() => req.socket.destroy(), 20);
        return;
      case 'huge-declared':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2147483648' });
        res.write('{"items":[');
        return;
      case 'huge-image':
      case 'content': // a recording link's bytes
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': '2147483648' });
        res.write(Buffer.alloc(1024));
        return;
      case 'endless': {
        // Fast, chunked, never ending: 64 KB every 5 ms.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"items":[');
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const t = every(5, () => res.write(chunk));
        res.on('close', () => clearInterval(t));
        return;
      }
      case 'flood': {
        // Chunked, never ending, as fast as the gateway takes it.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"items":[');
        const chunk = Buffer.alloc(256 * 1024, 0x20);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
        };
        res.on('drain', pump);
        pump();
        return;
      }
      case 'trickle': {
        // A few bytes every 100 ms, forever: never idle long enough to look stalled.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"items":[');
        const t = every(100, () => res.write('1,'));
        res.on('close', () => clearInterval(t));
        return;
      }
      case 'big-image': {
        // 4 MiB at once: far more than the sockets between peer, gateway and client hold.
        const body = Buffer.alloc(4 * 1024 * 1024, 7);
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(body.length) });
        res.end(body);
        return;
      }
      case 'slow-image': {
        // A legitimate 2 MB image on a slow link: 200 KB every 150 ms (about 1.5 s, timeout 1 s).
        res.writeHead(200, { 'content-type': 'image/png' });
        let sent = 0;
        const t = every(150, () => {
          res.write(Buffer.alloc(200 * 1024, 1));
          sent++;
          if (sent === 10) {
            clearInterval(t);
            res.end();
          }
        });
        res.on('close', () => clearInterval(t));
        return;
      }
      default:
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"NOT_FOUND","message":"no such fault"}');
    }
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  const peerUrl = `http://127.0.0.1:${(peer.address() as { port: number }).port}`;
  gateway = await buildGateway({
    WARDROBE_BASE_URL: peerUrl,
    ARTIFACTS_AUDIT_BASE_URL: peerUrl,
    INTERNAL_API_TIMEOUT_SECONDS: '1',
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const t of timers) clearInterval(t);
  await gateway.close();
  peer.closeAllConnections();
  await new Promise((resolve) => peer.close(resolve));
});

async function family() {
  const user = await login(gateway, `bounds-${Math.random()}@x.test`);
  const h = await gateway.inject({
    method: 'POST',
    url: '/api/v1/households',
    headers: bearer(user.token),
    payload: { name: 'H' },
  });
  return { token: user.token, id: h.json().householdId as string };
}

const create = (f: { token: string; id: string }, fault: string, key?: string) =>
  fetch(`${gatewayUrl}/api/v1/households/${f.id}/wardrobe/items/${fault}`, {
    method: 'POST',
    headers: {
      ...bearer(f.token),
      'content-type': 'application/json',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify({ category: 'TOP' }),
  });

/** Reads a reply to its end: how many bytes came, and whether the connection broke off. */
async function drain(res: Response): Promise<{ size: number; cut: boolean }> {
  let size = 0;
  try {
    for await (const chunk of res.body ?? []) size += (chunk as Uint8Array).length;
    return { size, cut: false };
  } catch {
    return { size, cut: true };
  }
}

describe('a keyed forwarded create whose peer answers badly', () => {
  it('keeps no HTML success: 502, and the retry once the peer is back creates the item', async () => {
    const f = await family();
    for (const fault of ['html-200', 'bad-json']) {
      const key = `k-${fault}-${Math.random()}`;
      const first = await create(f, fault, key);
      expect(first.status).toBe(502);
      expect(await first.json()).toMatchObject({
        error: 'UPSTREAM_ERROR',
        message: `wardrobe answered ${fault === 'bad-json' ? 201 : 200} without a JSON body`,
      });
      healthy = true;
      try {
        const before = writes.length;
        const retry = await create(f, fault, key);
        expect(retry.status).toBe(201);
        expect(retry.headers.get('idempotent-replayed')).toBeNull();
        expect(writes.length).toBe(before + 1);
        expect(await retry.json()).toMatchObject({ itemId: expect.stringMatching(/^w_/) });
      } finally {
        healthy = false;
      }
    }
  });

  const faults: Array<[string, number, string]> = [
    ['reset', 502, 'wardrobe broke off its reply'],
    ['html-500', 502, 'wardrobe answered 500 without a JSON error'],
    ['huge-declared', 502, `wardrobe answered with a body over ${MAX_KEPT_REPLY_BYTES} bytes`],
    ['endless', 502, `wardrobe answered with a body over ${MAX_KEPT_REPLY_BYTES} bytes`],
    ['trickle', 504, 'wardrobe did not finish its reply within 1000 ms'],
  ];
  it.each(faults)(
    'answers %s as the unkeyed forward does (%i), and frees the key',
    async (fault, status, message) => {
      const f = await family();
      const started = Date.now();
      const keyed = await create(f, fault, `k-${fault}`);
      expect(keyed.status).toBe(status);
      expect(await keyed.json()).toMatchObject({
        error: status === 504 ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_ERROR',
        message,
      });
      expect(Date.now() - started).toBeLessThan(3000);
      // Nothing kept: the same key reaches the peer again.
      const before = writes.length;
      const again = await create(f, fault, `k-${fault}`);
      expect(again.status).toBe(status);
      expect(writes.length).toBe(before + 1);
      await again.arrayBuffer();
      if (fault === 'reset' || fault === 'html-500') {
        // The unkeyed path answers these two in its envelope too: the same words.
        const plain = await create(f, fault);
        expect(plain.status).toBe(status);
        expect(((await plain.json()) as { message: string }).message).toBe(message);
      }
    },
  );
});

describe('an unkeyed forwarded reply', () => {
  it('refuses a JSON reply declaring more than the JSON limit before sending any byte', async () => {
    const f = await family();
    const res = await fetch(`${gatewayUrl}/api/v1/households/${f.id}/wardrobe/items/huge-declared`, {
      headers: bearer(f.token),
    });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({
      error: 'UPSTREAM_ERROR',
      message: expect.stringContaining('over'),
    });
  });

  it('answers 502 for an endless JSON body once it passes the size limit, before any byte', {
    timeout: 10_000,
  }, async () => {
    const f = await family();
    const started = Date.now();
    const flood = await fetch(`${gatewayUrl}/api/v1/households/${f.id}/wardrobe/items/flood`, {
      headers: bearer(f.token),
    });
    // A JSON reply is read whole first: cut by its size, not the deadline, in the envelope.
    expect(flood.status).toBe(502);
    expect(await flood.json()).toEqual({
      error: 'UPSTREAM_ERROR',
      message: `wardrobe answered with a body over ${MAX_JSON_REPLY_BYTES} bytes`,
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers 504 for a JSON body that keeps trickling past the deadline after its headers', {
    timeout: 10_000,
  }, async () => {
    const f = await family();
    const trickle = await fetch(`${gatewayUrl}/api/v1/households/${f.id}/wardrobe/items/trickle`, {
      headers: bearer(f.token),
    });
    expect(trickle.status).toBe(504);
    expect(await trickle.json()).toEqual({
      error: 'UPSTREAM_TIMEOUT',
      message: 'wardrobe did not finish its reply within 1000 ms',
    });
  });

  it("refuses a download declaring more than its route's maximum, and passes a slow one whole", async () => {
    const f = await family();
    const image = await fetch(
      `${gatewayUrl}/api/v1/households/${f.id}/wardrobe/items/i_1/images/huge-image`,
      {
        headers: bearer(f.token),
      },
    );
    expect(image.status).toBe(502);
    expect(((await image.json()) as { error: string }).error).toBe('UPSTREAM_ERROR');
    const recording = await fetch(
      `${gatewayUrl}/api/v1/households/${f.id}/artifacts/art_1/content?expires=1&signature=s`,
    );
    expect(recording.status).toBe(502);
    await recording.arrayBuffer();
    const slow = await fetch(`${gatewayUrl}/api/v1/households/${f.id}/wardrobe/items/i_1/images/slow-image`, {
      headers: bearer(f.token),
    });
    expect(slow.status).toBe(200);
    expect(await drain(slow)).toEqual({ size: 10 * 200 * 1024, cut: false });
  });

  it('passes a download whole to a client that stops reading for longer than the peer timeout', {
    timeout: 15_000,
  }, async () => {
    const f = await family();
    const url = new URL(`${gatewayUrl}/api/v1/households/${f.id}/wardrobe/items/i_1/images/big-image`);
    // A phone that stops reading for 2.5 s (timeout 1 s): backpressure holds the peer's body back,
    // which is the client's slowness, not a peer that stopped sending.
    const got = await new Promise<{ size: number; complete: boolean }>((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, headers: bearer(f.token) },
        (res) => {
          res.pause();
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
          });
          res.on('close', () => resolve({ size, complete: res.complete }));
          setTimeout(() => res.resume(), 2500);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(got).toEqual({ size: 4 * 1024 * 1024, complete: true });
  });
});

describe('a peer answer the gateway does not pass on', () => {
  const read = (f: { token: string; id: string }, fault: string) =>
    fetch(`${gatewayUrl}/api/v1/households/${f.id}/wardrobe/items/${fault}`, {
      headers: bearer(f.token),
      redirect: 'manual',
    });

  it('turns a redirect into 502, keyed or not, and never sends the client to its Location', async () => {
    const f = await family();
    for (const res of [
      await read(f, 'redirect'),
      await create(f, 'redirect', `k-redirect-${Math.random()}`),
    ]) {
      expect(res.status).toBe(502);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.json()).toEqual({
        error: 'UPSTREAM_ERROR',
        message: 'wardrobe answered 302: a redirect is not passed on',
      });
    }
  });

  it('turns an error without the envelope into 502, keyed or not, with none of its body', async () => {
    const f = await family();
    for (const res of [await read(f, 'bare-500'), await create(f, 'bare-500', `k-bare-${Math.random()}`)]) {
      expect(res.status).toBe(502);
      const text = await res.text();
      expect(text).not.toContain('/srv/x.js');
      expect(JSON.parse(text)).toEqual({
        error: 'UPSTREAM_ERROR',
        message: 'wardrobe answered 500 without the error envelope',
      });
    }
  });

  it("passes a peer's 503 on with its Retry-After, keyed or not, and frees the key", async () => {
    const f = await family();
    for (const key of [undefined, 'busy-key-1', 'busy-key-1']) {
      const res = await create(f, 'busy-503', key);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(((await res.json()) as { error: string }).error).toBe('SERVICE_UNAVAILABLE');
    }
    expect(writes.filter((w) => w === 'busy-503')).toHaveLength(3);
  });

  it('passes a HEAD error on with its status (it has no body, so no envelope to check)', async () => {
    const f = await family();
    const res = await fetch(`${gatewayUrl}/api/v1/households/${f.id}/wardrobe/items/no-such-item`, {
      method: 'HEAD',
      headers: bearer(f.token),
    });
    expect(res.status).toBe(404);
  });

  it('keeps its ETag but drops its cookies, CORS headers and any internal token', async () => {
    const f = await family();
    const res = await read(f, 'peer-headers');
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"v7"');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('x-internal-token')).toBeNull();
  });
});

describe("the audit log's answer", () => {
  it('is 502 when the ledger answers an entry of another household, and shows none of it', async () => {
    const f = await family();
    const res = await fetch(`${gatewayUrl}/api/v1/households/${f.id}/audit-logs`, {
      headers: bearer(f.token),
    });
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(text).not.toContain('h_someone_else');
    expect(JSON.parse(text)).toEqual({
      error: 'UPSTREAM_ERROR',
      message: 'artifacts-audit answered entries of another household',
    });
  });
});
