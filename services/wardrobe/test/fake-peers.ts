// Stand-ins for the gateway's internal membership route and commerce's internal search, on
// loopback port 0: enough protocol for the wardrobe's two peer calls.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';

export interface FakePeer {
  url: string;
  calls: { method: string; url: string; token: string | undefined; body: unknown }[];
  close(): Promise<void>;
}

async function serve(
  handler: (method: string, url: string, body: unknown) => { status: number; body: unknown },
): Promise<FakePeer> {
  const calls: FakePeer['calls'] = [];
  const server: Server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : undefined;
    calls.push({
      method: req.method ?? '',
      url: req.url ?? '',
      token: req.headers['x-internal-token'] as string | undefined,
      body,
    });
    const out = handler(req.method ?? '', req.url ?? '', body);
    res.writeHead(out.status, { 'content-type': 'application/json' }).end(JSON.stringify(out.body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    calls,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

const member = (memberId: string) => ({
  memberId,
  role: 'ADULT',
  displayName: null,
  addedAt: '2025-01-01T00:00:00.000Z',
  addedBy: 'usr_a',
});

/** Households and their member ids. */
export function fakeGateway(households: Record<string, string[]>) {
  return serve((_method, url) => {
    const id = /^\/api\/v1\/internal\/households\/([^/]+)\/members$/.exec(url)?.[1];
    const members = id ? households[decodeURIComponent(id)] : undefined;
    if (!members) return { status: 404, body: { error: 'NOT_FOUND', message: 'Household not found' } };
    return { status: 200, body: { householdId: id, members: members.map(member) } };
  });
}

/** Answers the internal search with the offers of the requested category. */
export function fakeCommerce(offers: Record<string, unknown>[]) {
  return serve((_method, _url, body) => {
    const { category, householdId } = body as { category?: string; householdId: string };
    const items = offers.filter(
      (o) => o.householdId === householdId && (!category || o.category === category),
    );
    return { status: 200, body: { items, nextCursor: null } };
  });
}

export const offerFixture = (over: Record<string, unknown>) => ({
  offerId: 'off_1',
  householdId: 'h_1',
  title: 'Canvas sneakers',
  brand: 'Acme',
  url: 'https://shop.acme.com/p/1',
  merchantDomain: 'shop.acme.com',
  price: 55,
  currency: 'EUR',
  category: 'SHOES',
  colors: ['white'],
  season: ['SUMMER'],
  sizes: ['42'],
  imageUrl: null,
  status: 'ACTIVE',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...over,
});
