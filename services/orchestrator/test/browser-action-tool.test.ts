import { createPeerClient } from '@hs/service-kit';
import { type FakePeer, type FakePeerCall, startFakePeer } from '@hs/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrchestratorPeers } from '../src/adapters/peers.ts';
import { checkToolCall, runToolCall } from '../src/adapters/tools/tool-registry.ts';

let peer: FakePeer | undefined;
afterEach(async () => peer?.close());

const SESSION = { sessionId: 'bs_1', householdId: 'h_1', missionId: 'msn_1', status: 'ACTIVE' };
const PAGE = {
  sessionId: 'bs_1',
  url: 'https://shop.example/p/1',
  polledAt: '2026-01-01T00:00:00.000Z',
  elements: [
    { selector: 'h1', role: 'heading', name: 'Linen Shirt', href: null },
    { selector: '#bag', role: 'button', name: 'Add to bag', href: null },
    { selector: '#pay', role: 'button', name: 'Pay now', href: null },
  ],
};

const ACTION = {
  seq: 1,
  actor: 'agent',
  type: 'CLICK',
  url: null,
  selector: '#bag',
  textLength: null,
  at: '2026-01-01T00:00:00.000Z',
};

/** The bridge as a fake: the session, its page, and `act` for agent-action. */
async function run(args: Record<string, unknown>, over: Partial<Record<'session' | 'act', unknown>> = {}) {
  peer = await startFakePeer((call: FakePeerCall) => {
    if (call.url.endsWith('/elements')) return { status: 200, body: PAGE };
    if (call.url.endsWith('/agent-action'))
      return (over.act as { status: number; body: unknown }) ?? { status: 200, body: { action: ACTION } };
    return { status: 200, body: over.session ?? SESSION };
  });
  const bridge = createPeerClient({
    service: 'browser-bridge',
    baseUrl: peer.url,
    token: 't',
    timeoutMs: 2000,
  });
  const ctx = {
    householdId: 'h_1',
    missionId: 'msn_1',
    caller: { userId: 'usr_owner', role: 'PARENT_GUARDIAN' as const, email: null },
    requestId: 'req-1',
    peers: { bridge } as unknown as OrchestratorPeers,
  };
  return runToolCall(checkToolCall({ tool: 'browser_action', args: { sessionId: 'bs_1', ...args } }), ctx);
}
const acted = () => peer!.calls.filter((c) => c.url.endsWith('/agent-action'));

describe('browser_action', () => {
  it('clicks an element read on the page and answers the page after it', async () => {
    const outcome = await run({ type: 'CLICK', selector: '#bag' });
    expect(outcome).toMatchObject({
      ok: true,
      result: { outcome: 'DONE', target: 'Add to bag', page: { heading: 'Linen Shirt' } },
    });
    expect(acted().map((c) => c.body)).toEqual([{ type: 'CLICK', selector: '#bag' }]);
  });

  it('refuses a payment control as SAFETY_VIOLATION without acting', async () => {
    const outcome = await run({ type: 'CLICK', selector: '#pay' });
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: 'SAFETY_VIOLATION',
        message: 'I never pay or place orders: "Pay now" is for you to press yourself.',
      },
    });
    expect(acted()).toEqual([]);
  });

  it('does not act in a session of another mission', async () => {
    const outcome = await run({ type: 'SCROLL' }, { session: { ...SESSION, missionId: 'msn_other' } });
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'Browser session not found for this mission' },
    });
    expect(acted()).toEqual([]);
  });

  it('reports the user holding the session as an outcome, not an error', async () => {
    const act = {
      status: 409,
      body: { error: 'INVALID_STATE', message: 'the user is in control of the browser' },
    };
    const outcome = await run({ type: 'CLICK', selector: '#bag' }, { act });
    expect(outcome).toMatchObject({ ok: true, result: { outcome: 'USER_IN_CONTROL', page: null } });
  });

  it('answers UPSTREAM_ERROR when the session reply breaks the contract', async () => {
    const outcome = await run({ type: 'READ' }, { session: { sessionId: 'bs_1' } });
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: 'UPSTREAM_ERROR',
        message: 'The browser is not working right now',
      },
    });
  });
});
