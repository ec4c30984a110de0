// A user whose email cannot travel in an HTTP header as it is (an internationalised address, as
// an OIDC provider may return, or one with a control character) must still reach every
// forwarded route: X-User-Email is left out for them instead of the whole call failing with 502.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, buildGateway, type GatewayApp, withHousehold } from './gateway-harness.ts';

let peer: FastifyInstance;
let gateway: GatewayApp;
const received: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  peer = Fastify();
  peer.get('/api/v1/households/:id/orchestrator/missions/:mId/access', async (req) => {
    received.push({ ...req.headers });
    const { id } = req.params as { id: string };
    return {
      mission_id: 'msn_1',
      household_id: id,
      owner_id: req.headers['x-user-id'],
      mission_type: 'STYLE',
      state: 'RUNNING',
    };
  });
  peer.all('/api/v1/*', async (req) => {
    received.push({ ...req.headers });
    return { items: [] };
  });
  await peer.listen({ port: 0, host: '127.0.0.1' });
  const address = peer.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  gateway = await buildGateway({ WARDROBE_BASE_URL: url, ORCHESTRATOR_BASE_URL: url });
});
afterAll(async () => {
  await gateway.close();
  await peer.close();
});
beforeEach(() => {
  received.length = 0;
});

describe('the caller email forwarded to peers', () => {
  it.each([
    ['an internationalised address', '李@例子.cn'],
    ['an emoji', 'kid😀@family.test'],
    ['a control character', 'tab\u007fkey@family.test'],
  ])('a user with %s reaches the forwarded routes, without X-User-Email', async (_label, idToken) => {
    const { token, userId, householdId } = await withHousehold(gateway, idToken);
    const items = await gateway.inject({
      method: 'GET',
      url: `/api/v1/households/${householdId}/wardrobe/items`,
      headers: bearer(token),
    });
    expect(items.statusCode).toBe(200);
    expect(items.json()).toEqual({ items: [] });
    // A route whose mission lookup goes through the shared peer client.
    const streamToken = await gateway.inject({
      method: 'POST',
      url: `/api/v1/households/${householdId}/orchestrator/missions/msn_1/stream-token`,
      headers: bearer(token),
    });
    expect(streamToken.statusCode).toBe(200);
    expect(received).toHaveLength(2);
    for (const headers of received) {
      expect(headers['x-user-id']).toBe(userId);
      expect(headers['x-user-email'] ?? '').toBe('');
    }
  });

  it('an ASCII email is still forwarded', async () => {
    const { token, householdId } = await withHousehold(gateway, 'Parent@Family.test');
    const items = await gateway.inject({
      method: 'GET',
      url: `/api/v1/households/${householdId}/wardrobe/items`,
      headers: bearer(token),
    });
    expect(items.statusCode).toBe(200);
    expect(received[0]?.['x-user-email']).toBe('parent@family.test');
  });
});
