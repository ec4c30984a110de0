import { CartprepFailureCode, type PrepareCartResult } from '@hs/contracts';
import { describe, expect, it } from 'vitest';
import { functionDeclarations } from '../src/adapters/models/gemini-model.ts';
import type { OrchestratorPeers } from '../src/adapters/peers.ts';
import { checkCart } from '../src/adapters/tools/check-cart.ts';
import type { ToolContext } from '../src/adapters/tools/tool-context.ts';
import { checkToolCall, TOOL_NAMES, TOOLS } from '../src/adapters/tools/tool-registry.ts';
import type { ModelInput, ToolOutcome } from '../src/domain/agent-model.ts';
import { emptyContext, type MissionContext } from '../src/domain/mission.ts';
import { createStubModel } from '../src/domain/stub-model.ts';
import { applyTurn } from '../src/domain/turn-effects.ts';

// The stub's CARTPREP decisions, fed with what the real check_cart tool makes of scripted
// gateway reads (no HTTP): it checks dispatched carts first, reports them plainly, retries.

const stub = createStubModel();
const CART = {
  items: [{ title: 'Rain jacket', size: 'M', quantity: 1, unitPrice: 79.9 }],
  subtotal: 79.9,
  currency: 'EUR',
  merchantDomain: 'shop.example.com',
  checkoutUrl: 'https://shop.example.com/checkout',
};

function ctxWith(over: Partial<MissionContext>): MissionContext {
  return { ...emptyContext(), ...over };
}

const input = (userText: string, context: MissionContext, steps: ToolOutcome[][] = []): ModelInput => ({
  missionType: 'CARTPREP',
  history: [],
  userText,
  steps,
  context,
  tools: TOOL_NAMES,
});

/** check_cart as the tool answers for a gateway read with these fields. */
async function checked(requestId: string, read: Record<string, unknown>): Promise<ToolOutcome> {
  const gateway = {
    call: async () => ({ status: 200, headers: {}, body: { requestId, title: 'Rain jacket', ...read } }),
  };
  const ctx = {
    householdId: 'h_1',
    missionId: 'msn_1',
    caller: { userId: 'usr_owner' },
    requestId: 'req_1',
    peers: { gateway } as unknown as OrchestratorPeers,
  } as ToolContext;
  const result = checkCart.result.parse(await checkCart.run({ requestId }, ctx));
  return { ok: true, tool: 'check_cart', args: { requestId }, result };
}

const failedRead = (errorCode: string) => ({
  status: 'APPROVED',
  cartprepJobId: 'cpj_1',
  lastFailure: { jobId: 'cpj_1', errorCode, message: 'simulated', at: '2026-01-01T00:00:00.000Z' },
});

const dispatched = (requestId: string, job: string): ToolOutcome => ({
  ok: true,
  tool: 'prepare_cart',
  args: { requestId },
  result: {
    requestId,
    outcome: 'DISPATCHED',
    status: 'CART_PREP',
    cartprepJobId: job,
    message: `Cart preparation for ${requestId} started (job ${job}).`,
  } satisfies PrepareCartResult,
});

const watching = ctxWith({ cartsPreparing: ['pr_a'] });

describe('stub CARTPREP: checking dispatched carts', () => {
  it('remembers a dispatched request and checks it first on the next turn', async () => {
    const first = await stub.next(input('prepare pr_a', emptyContext()));
    expect(first).toMatchObject({
      kind: 'tools',
      calls: [{ tool: 'prepare_cart', args: { requestId: 'pr_a' } }],
    });
    const context = applyTurn(emptyContext(), 'CARTPREP', 'prepare pr_a', [dispatched('pr_a', 'cpj_1')]);
    expect(context.cartsPreparing).toEqual(['pr_a']);

    const next = await stub.next(input('anything new?', context));
    expect(next).toMatchObject({
      kind: 'tools',
      calls: [{ tool: 'check_cart', args: { requestId: 'pr_a' } }],
    });
  });

  it('ready: subtotal, currency and merchant, and where to confirm; no token', async () => {
    const check = await checked('pr_a', { status: 'CART_READY', cartprepJobId: 'cpj_1', cart: CART });
    expect(check.ok && check.result).toMatchObject({ outcome: 'READY', cart: CART });
    const decision = await stub.next(input('news?', watching, [[check]]));
    expect(decision).toEqual({
      kind: 'reply',
      text: 'The cart for "Rain jacket" (pr_a) is ready: 1 item, 79.90 EUR at shop.example.com. Confirm the checkout in the app: ask for a confirmation token there.',
    });
    const after = applyTurn(watching, 'CARTPREP', 'news?', [check]);
    expect(after.cartsPreparing).toEqual([]);
    expect(after.resultItems).toContainEqual({
      kind: 'cart',
      requestId: 'pr_a',
      subtotal: 79.9,
      currency: 'EUR',
      merchantDomain: 'shop.example.com',
    });
  });

  it('still preparing: says so and keeps watching', async () => {
    const check = await checked('pr_a', { status: 'CART_PREP', cartprepJobId: 'cpj_1' });
    const decision = await stub.next(input('news?', watching, [[check]]));
    expect(decision).toEqual({
      kind: 'reply',
      text: 'The cart for "Rain jacket" (pr_a) is still being prepared (job cpj_1).',
    });
    expect(applyTurn(watching, 'CARTPREP', 'news?', [check]).cartsPreparing).toEqual(['pr_a']);
  });

  const words: Record<CartprepFailureCode, string> = {
    BLOCKED_BOT_DETECTED: 'the shop blocked our automated browser',
    SIZE_UNAVAILABLE: 'the size is out of stock',
    POPUP_OVERLAY_UNRESOLVED: "a pop-up on the shop's page could not be closed",
    LOGIN_REQUIRED: 'the shop requires signing in',
    UNKNOWN_DOM: "the shop's page was not recognised",
    TIMEOUT: "the shop's page took too long to respond",
    DOMAIN_NOT_ALLOWED: 'the shop is not on the list of allowed merchants',
    SAFETY_VIOLATION: 'the next step would have broken the safety rules',
    INTERNAL_ERROR: 'something went wrong inside cart preparation',
  };
  it.each(CartprepFailureCode.options)(
    'failed with %s: the reason in plain words and how to retry',
    async (code) => {
      const check = await checked('pr_a', failedRead(code));
      expect(check.ok && check.result).toMatchObject({ outcome: 'FAILED', failure: { errorCode: code } });
      const decision = await stub.next(input('news?', watching, [[check]]));
      expect(decision).toEqual({
        kind: 'reply',
        text: `Cart preparation for "Rain jacket" (pr_a) failed: ${words[code]}. The approval still stands, so it can be tried again. Say "retry" and I'll try again.`,
      });
      const after = applyTurn(watching, 'CARTPREP', 'news?', [check]);
      expect(after).toMatchObject({ cartsPreparing: [], cartsFailed: ['pr_a'] });
    },
  );

  it('retry / try again dispatches the failed request again and says so', async () => {
    const failed = ctxWith({ cartsFailed: ['pr_a'] });
    for (const text of ['retry', 'Please try again']) {
      const first = await stub.next(input(text, failed));
      expect(first).toMatchObject({
        kind: 'tools',
        calls: [{ tool: 'prepare_cart', args: { requestId: 'pr_a' } }],
      });
    }
    const done = await stub.next(input('retry', failed, [[dispatched('pr_a', 'cpj_2')]]));
    expect(done).toEqual({
      kind: 'reply',
      text: 'Cart preparation for pr_a has started again (job cpj_2). I never buy: you confirm the final checkout yourself.',
    });
    const after = applyTurn(failed, 'CARTPREP', 'retry', [dispatched('pr_a', 'cpj_2')]);
    expect(after).toMatchObject({ cartsPreparing: ['pr_a'], cartsFailed: [] });
  });

  it('a "retry" that finds the failure in the same turn reports it and dispatches again', async () => {
    const check = await checked('pr_a', failedRead('SIZE_UNAVAILABLE'));
    const step1 = await stub.next(input('retry', watching, [[check]]));
    expect(step1).toMatchObject({
      kind: 'tools',
      calls: [{ tool: 'prepare_cart', args: { requestId: 'pr_a' } }],
    });
    const reply = await stub.next(input('retry', watching, [[check], [dispatched('pr_a', 'cpj_2')]]));
    expect(reply).toEqual({
      kind: 'reply',
      text: 'Cart preparation for "Rain jacket" (pr_a) failed: the size is out of stock. The approval still stands, so it can be tried again. Cart preparation for pr_a has started again (job cpj_2). I never buy: you confirm the final checkout yourself.',
    });
  });

  it('retry with nothing failed says so; naming a request being prepared does not dispatch it again', async () => {
    const check = await checked('pr_a', { status: 'CART_PREP', cartprepJobId: 'cpj_1' });
    expect(await stub.next(input('retry', watching, [[check]]))).toEqual({
      kind: 'reply',
      text: 'The cart for "Rain jacket" (pr_a) is still being prepared (job cpj_1). Nothing has failed, so there is nothing to retry.',
    });
    expect(await stub.next(input('how is pr_a?', watching, [[check]]))).toEqual({
      kind: 'reply',
      text: 'The cart for "Rain jacket" (pr_a) is still being prepared (job cpj_1).',
    });
  });

  it('a check the gateway refuses is reported and the request stays watched', async () => {
    const down: ToolOutcome = {
      ok: false,
      tool: 'check_cart',
      args: { requestId: 'pr_a' },
      error: { code: 'SERVICE_UNAVAILABLE', message: 'gateway is unavailable' },
    };
    expect(await stub.next(input('news?', watching, [[down]]))).toEqual({
      kind: 'reply',
      text: "I couldn't check the cart for pr_a (gateway is unavailable).",
    });
    expect(applyTurn(watching, 'CARTPREP', 'news?', [down]).cartsPreparing).toEqual(['pr_a']);
  });

  it('"done" still concludes at once, without checking', async () => {
    expect(await stub.next(input('done', watching))).toMatchObject({
      kind: 'tools',
      calls: [{ tool: 'complete_mission', args: {} }],
    });
  });

  it('missions stored before the cart memory existed still work', async () => {
    const { cartsPreparing: _p, cartsFailed: _f, ...old } = emptyContext();
    expect(await stub.next(input('hello', old as MissionContext))).toEqual({
      kind: 'reply',
      text: 'Tell me which approved purchase request to prepare: its id starts with pr_.',
    });
    expect(await stub.next(input('retry', old as MissionContext))).toEqual({
      kind: 'reply',
      text: 'Nothing has failed, so there is nothing to retry.',
    });
  });
});

describe('check_cart tool', () => {
  it('is declared to the model with the pr_ id pattern and refuses anything else', () => {
    const decl = functionDeclarations(TOOLS).find((d) => d.name === 'check_cart');
    expect(decl?.parametersJsonSchema).toMatchObject({
      type: 'object',
      properties: { requestId: { type: 'string', pattern: '^pr_[A-Za-z0-9_-]{1,124}$' } },
      required: ['requestId'],
      additionalProperties: false,
    });
    for (const requestId of ['../x', 'pr_a/../b', 'req_1', ''])
      expect(() => checkToolCall({ tool: 'check_cart', args: { requestId } })).toThrow(
        'The agent model called check_cart with invalid arguments (requestId: must be a purchase request id (pr_...))',
      );
  });

  it('maps every request status to an outcome', async () => {
    const outcomes: Record<string, string> = {};
    for (const status of [
      'PENDING_APPROVAL',
      'APPROVED',
      'CART_PREP',
      'COMPLETED',
      'REJECTED',
      'CANCELLED',
    ]) {
      const o = await checked('pr_a', { status });
      outcomes[status] = o.ok ? (o.result as { outcome: string }).outcome : 'error';
    }
    expect(outcomes).toEqual({
      PENDING_APPROVAL: 'APPROVAL_NEEDED',
      APPROVED: 'NOT_STARTED',
      CART_PREP: 'PREPARING',
      COMPLETED: 'COMPLETED',
      REJECTED: 'CLOSED',
      CANCELLED: 'CLOSED',
    });
  });
});
