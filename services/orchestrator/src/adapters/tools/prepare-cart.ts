// Reads the purchase request and, only when it is APPROVED, starts its cart preparation
// (adapters/tools/purchase-request.ts). The tool never buys.
import { PrepareCartArgs, PrepareCartResult } from '@hs/contracts';
import { cartOutcome, describeCartStatus, requestName } from '../../domain/cart-status.ts';
import { readPurchaseRequest, startPurchaseIntent } from './purchase-request.ts';
import type { ToolDefinition } from './tool-context.ts';

export const prepareCart: ToolDefinition<typeof PrepareCartArgs, typeof PrepareCartResult> = {
  name: 'prepare_cart',
  description:
    'Starts cart preparation for an APPROVED purchase request (id pr_...), also again after a failed attempt. It never buys; if the request is not approved yet it says that a parent must approve it first.',
  args: PrepareCartArgs,
  result: PrepareCartResult,
  async run({ requestId }, ctx) {
    const request = await readPurchaseRequest(ctx, requestId);
    const name = requestName({ requestId, title: request.title });
    if (request.status === 'PENDING_APPROVAL')
      return {
        requestId,
        outcome: 'APPROVAL_NEEDED' as const,
        status: request.status,
        cartprepJobId: null,
        message: `Request ${name} is waiting for approval: approval by a parent is needed before I can prepare the cart.`,
      };
    // Already past APPROVED: a start whose answer was lost on the way back (the gateway moved the
    // request on, the mission never heard), or a member who started it in the app. The mission
    // follows the job that is running, and a ready cart is reported as ready, not as refused.
    if (request.status === 'CART_PREP' && request.cartprepJobId)
      return {
        requestId,
        outcome: 'DISPATCHED' as const,
        status: request.status,
        cartprepJobId: request.cartprepJobId,
        message: `Cart preparation for ${name} is already under way (job ${request.cartprepJobId}).`,
      };
    if (request.status !== 'APPROVED') {
      const outcome = cartOutcome(request.status, request.lastFailure);
      return {
        requestId,
        outcome: 'NOT_ELIGIBLE' as const,
        status: request.status,
        cartprepJobId: request.cartprepJobId ?? null,
        message:
          outcome === 'READY' || outcome === 'COMPLETED'
            ? describeCartStatus({
                requestId,
                title: request.title,
                status: request.status,
                outcome,
                cart: request.cart ?? undefined,
              })
            : `Request ${name} is ${request.status}; only an APPROVED request can go to cart preparation.`,
      };
    }
    const { cartprepJobId } = await startPurchaseIntent(ctx, requestId);
    return {
      requestId,
      outcome: 'DISPATCHED' as const,
      status: 'CART_PREP',
      cartprepJobId,
      message: `Cart preparation for ${name} started (job ${cartprepJobId}).`,
    };
  },
};
