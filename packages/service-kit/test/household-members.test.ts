import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHouseholdMembers } from '../src/household-members.ts';
import { createPeerClient } from '../src/peer-client.ts';

const gateway = Fastify();
const seen: { url: string; token: unknown; requestId: unknown }[] = [];
let members: ReturnType<typeof createHouseholdMembers>;

const member = (memberId: string) => ({
  memberId,
  role: 'ADULT',
  displayName: null,
  addedAt: '2025-01-01T00:00:00.000Z',
  addedBy: 'usr_a',
});

beforeAll(async () => {
  gateway.get('/api/v1/internal/households/:id/members', async (req, reply) => {
    const { id } = req.params as { id: string };
    seen.push({
      url: req.url,
      token: req.headers['x-internal-token'],
      requestId: req.headers['x-request-id'],
    });
    if (id !== 'h 1') return reply.code(404).send({ error: 'NOT_FOUND', message: 'Household not found' });
    return { householdId: id, members: [member('usr_a'), member('usr_b')] };
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  const address = gateway.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  members = createHouseholdMembers(
    createPeerClient({
      service: 'gateway',
      baseUrl: `http://127.0.0.1:${port}`,
      token: 'gw-token',
      timeoutMs: 2000,
    }),
  );
});
afterAll(() => gateway.close());

describe('household members from the gateway', () => {
  it('lists the members, asking with the gateway token, the request id and an encoded household id', async () => {
    expect((await members.members('h 1', 'req-1')).map((m) => m.memberId)).toEqual(['usr_a', 'usr_b']);
    expect(seen.at(-1)).toEqual({
      url: '/api/v1/internal/households/h%201/members',
      token: 'gw-token',
      requestId: 'req-1',
    });
  });

  it('tells members from non-members', async () => {
    expect(await members.isMember('h 1', 'usr_b')).toBe(true);
    expect(await members.isMember('h 1', 'usr_c')).toBe(false);
  });

  it("passes on the gateway's 404", async () => {
    await expect(members.isMember('h_2', 'usr_a')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
