import { createPeerClient } from '@hs/service-kit';
import { type FakePeer, startFakePeer } from '@hs/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrchestratorPeers } from '../src/adapters/peers.ts';
import { checkToolCall, runToolCall } from '../src/adapters/tools/tool-registry.ts';

let peer: FakePeer | undefined;
afterEach(async () => peer?.close());

/** Every peer of the tools is one fake answering `body` to any call. */
async function toolContext(body: unknown) {
  peer = await startFakePeer(() => ({ status: 200, body }));
  const client = (service: 'wardrobe' | 'commerce' | 'browser-bridge' | 'gateway' | 'artifacts-audit') =>
    createPeerClient({ service, baseUrl: peer!.url, token: 't', timeoutMs: 2000 });
  const peers: OrchestratorPeers = {
    wardrobe: client('wardrobe'),
    commerce: client('commerce'),
    bridge: client('browser-bridge'),
    gateway: client('gateway'),
    artifacts: client('artifacts-audit'),
  };
  return {
    householdId: 'h_1',
    missionId: 'msn_1',
    caller: { userId: 'usr_owner', role: 'PARENT_GUARDIAN' as const, email: null },
    requestId: 'req-1',
    peers,
  };
}

const run = async (tool: string, args: Record<string, unknown>, reply: unknown) =>
  runToolCall(checkToolCall({ tool, args }), await toolContext(reply));

/** A reply that breaks its contract: the family reads which part is not working, not the peer's name. */
const SUBJECT: Record<string, string> = {
  wardrobe: 'The wardrobe',
  commerce: 'The shop search',
  gateway: 'Cart preparation',
};
const contractBreach = (service: string) => ({
  code: 'UPSTREAM_ERROR',
  message: `${SUBJECT[service]} is not working right now`,
});

describe("tools check their peers' replies against the contracts", () => {
  it('list_wardrobe passes on what a stylist needs of a well-formed page', async () => {
    const outcome = await run(
      'list_wardrobe',
      {},
      {
        items: [
          { itemId: 'item_1', category: 'TOP', brand: 'Acme', colors: ['white'], images: [{ url: 'x' }] },
        ],
        nextCursor: null,
      },
    );
    expect(outcome).toMatchObject({
      ok: true,
      result: { items: [{ itemId: 'item_1', category: 'TOP', brand: 'Acme', colors: ['white'] }], count: 1 },
    });
  });

  it.each([
    ['an item of an unknown category', { items: [{ itemId: 'item_1', category: 'HAT' }], nextCursor: null }],
    ['seasons that are not seasons', { items: [{ itemId: 'item_1', category: 'TOP', season: ['hot'] }] }],
    ['no items list', { rows: [] }],
  ])('list_wardrobe reports a wardrobe reply with %s as a peer error', async (_name, reply) => {
    const outcome = await run('list_wardrobe', {}, reply);
    expect(outcome).toMatchObject({ ok: false, error: contractBreach('wardrobe') });
  });

  it.each([
    ['a price that is not a number', { items: [{ offerId: 'off_1', price: 'cheap' }], nextCursor: null }],
    ['an offer without its id', { items: [{ title: 'Shirt' }], nextCursor: null }],
  ])('search_commerce reports a commerce reply with %s as a peer error', async (_name, reply) => {
    const outcome = await run('search_commerce', {}, reply);
    expect(outcome).toMatchObject({ ok: false, error: contractBreach('commerce') });
  });

  it('check_cart reports a purchase request in a status the contract does not know', async () => {
    const outcome = await run('check_cart', { requestId: 'pr_1' }, { requestId: 'pr_1', status: 'SHIPPED' });
    expect(outcome).toMatchObject({ ok: false, error: contractBreach('gateway') });
  });
});
