// Every create answers with `Location`, the new resource's path, and that path reads it back
// through the gateway (RFC 9110: 201 Created names what it created). A retried household create
// (same Idempotency-Key) names the same household. Real service processes on loopback.
import { type RunningStack, startStack } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journeyClient, type User } from './journey-client.ts';

let stack: RunningStack;
let parent: User;
let householdId = '';

beforeAll(async () => {
  stack = await startStack({
    services: ['gateway', 'orchestrator', 'wardrobe', 'commerce', 'artifacts-audit'],
  });
  const client = journeyClient(stack.url('gateway'));
  parent = await client.login('location-parent@family.test');
  householdId = await client.household(parent, 'Location family');
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.url('gateway')}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${parent.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    location: res.headers.get('location'),
    body: (await res.json()) as Record<string, unknown>,
  };
}

describe('a create names what it created', () => {
  it('in Location, which reads it back through the gateway', async () => {
    const H = `/api/v1/households/${householdId}`;
    const item = await call('POST', `${H}/wardrobe/items`, { category: 'TOP', colors: ['blue'] });
    const creates: Array<
      [string, { status: number; location: string | null; body: Record<string, unknown> }, string]
    > = [
      ['household', await call('POST', '/api/v1/households', { name: 'Second home' }), 'householdId'],
      ['item', item, 'itemId'],
      ['outfit', await call('POST', `${H}/wardrobe/outfits`, { itemIds: [item.body.itemId] }), 'outfitId'],
      [
        'collection',
        await call('POST', `${H}/wardrobe/feed/collections`, { name: 'Summer' }),
        'collectionId',
      ],
      [
        'offer',
        await call('POST', `${H}/offers`, {
          title: 'Linen shirt',
          price: 40,
          currency: 'EUR',
          url: 'https://shop.com/linen',
        }),
        'offerId',
      ],
      [
        'purchase request',
        await call('POST', `${H}/requests`, {
          title: 'Raincoat',
          price: 40,
          currency: 'EUR',
          url: 'https://shop.com/raincoat',
        }),
        'requestId',
      ],
      [
        'mission',
        await call('POST', `${H}/orchestrator/missions`, {
          mission_type: 'STYLE',
          initial_message: 'a blue shirt',
        }),
        'mission_id',
      ],
    ];
    for (const [what, created, idField] of creates) {
      expect({ what, status: created.status }).toEqual({ what, status: 201 });
      const id = String(created.body[idField]);
      expect(created.location, what).toMatch(new RegExp(`/${id}$`));
      const read = await call('GET', created.location!);
      expect({ what, status: read.status, id: read.body[idField] }).toEqual({ what, status: 200, id });
    }
  });

  it('and a retried household create names the same household', async () => {
    const key = { 'idempotency-key': 'location-retry-1' };
    const first = await call('POST', '/api/v1/households', { name: 'Retried' }, key);
    const again = await call('POST', '/api/v1/households', { name: 'Retried' }, key);
    expect(first.status).toBe(201);
    expect(again.location).toBe(first.location);
    expect(again.location).toBe(`/api/v1/households/${first.body.householdId}`);
  });
});
