// Reads where a purchase request's cart preparation stands (adapters/tools/purchase-request.ts).
// Read only: it never buys, and the gateway's read carries no confirmation token.
import { CheckCartArgs, CheckCartResult } from '@hs/contracts';
import { cartOutcome, describeCartStatus } from '../../domain/cart-status.ts';
import { readPurchaseRequest } from './purchase-request.ts';
import type { ToolDefinition } from './tool-context.ts';

export const checkCart: ToolDefinition<typeof CheckCartArgs, typeof CheckCartResult> = {
  name: 'check_cart',
  description:
    'Checks how cart preparation for a purchase request (id pr_...) went: still preparing, ready (with the cart: items, subtotal, merchant), or failed (with the reason; the approval stands, so prepare_cart can try again). It never buys.',
  args: CheckCartArgs,
  result: CheckCartResult,
  async run({ requestId }, ctx) {
    const r = await readPurchaseRequest(ctx, requestId);
    const outcome = cartOutcome(r.status, r.lastFailure);
    const cart = outcome === 'READY' && r.cart ? r.cart : undefined;
    const failure = outcome === 'FAILED' && r.lastFailure ? r.lastFailure : undefined;
    const message = describeCartStatus({
      requestId,
      title: r.title,
      status: r.status,
      outcome,
      cart,
      failure,
      cartprepJobId: r.cartprepJobId,
    });
    return {
      requestId,
      status: r.status,
      outcome,
      ...(cart ? { cart } : {}),
      ...(failure ? { failure } : {}),
      message,
    };
  },
};
