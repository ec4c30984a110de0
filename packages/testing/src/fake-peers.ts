// Stand-ins for peer services on loopback port 0, recording every call they receive.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';

export type FakePeerCall = { method: string; url: string; token: string | undefined; body: unknown };

export interface FakePeer {
  url: string;
  calls: FakePeerCall[];
  /** The headers of each call, in the order of `calls`. */
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** A JSON peer answering every request with what `handler` returns for it. */
export async function startFakePeer(
  handler: (call: FakePeerCall) => { status: number; body: unknown },
): Promise<FakePeer> {
  const calls: FakePeerCall[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const call: FakePeerCall = {
      method: req.method ?? '',
      url: req.url ?? '',
      token: req.headers['x-internal-token'] as string | undefined,
      body: raw ? JSON.parse(raw) : undefined,
    };
    calls.push(call);
    headers.push(req.headers);
    const out = handler(call);
    res.writeHead(out.status, { 'content-type': 'application/json' }).end(JSON.stringify(out.body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    calls,
    headers,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * What a receiving service answers a delivery with, as far as its sender checks it (the receipts
 * in @hs/contracts): an audit entry's id, an artifact's id and type, a cart-prep callback's
 * request. A fake that accepts every delivery answers this.
 */
export function receiptFor(call: FakePeerCall): Record<string, unknown> {
  const body = (call.body ?? {}) as Record<string, unknown>;
  if (call.url.includes('/audit/events')) return { eventId: body.eventId ?? 'aud_fake' };
  const artifact = /\/artifacts\/([a-z-]+)$/.exec(call.url)?.[1];
  if (artifact) return { artifactId: `art_fake_${artifact}`, type: artifact };
  const request = /\/requests\/([^/]+)\/(?:cart-ready|failed)$/.exec(call.url)?.[1];
  if (request) return { requestId: decodeURIComponent(request), status: 'CART_READY' };
  return {};
}

/**
 * The gateway's internal membership route (`GET /api/v1/internal/households/{id}/members`) for
 * the given households and their member ids; unknown households are 404. With `token`, a call
 * without it is 403.
 */
export function startFakeGatewayMembers(
  households: Record<string, string[]>,
  options: { token?: string } = {},
): Promise<FakePeer> {
  return startFakePeer(({ url, token }) => {
    if (options.token !== undefined && token !== options.token)
      return { status: 403, body: { error: 'FORBIDDEN', message: 'bad token' } };
    const id = /^\/api\/v1\/internal\/households\/([^/]+)\/members$/.exec(url)?.[1];
    const members = id ? households[decodeURIComponent(id)] : undefined;
    if (!id || !members) return { status: 404, body: { error: 'NOT_FOUND', message: 'Household not found' } };
    return {
      status: 200,
      body: {
        householdId: decodeURIComponent(id),
        members: members.map((memberId) => ({
          memberId,
          role: 'ADULT',
          displayName: null,
          addedAt: '2025-01-01T00:00:00.000Z',
          addedBy: members[0],
        })),
      },
    };
  });
}
