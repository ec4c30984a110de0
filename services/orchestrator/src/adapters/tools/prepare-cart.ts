// Gateway (buy flow): the purchase request is read and its cart preparation dispatched through the
// gateway's internal routes, with the mission owner as the acting user:
//   GET  /api/v1/internal/households/{id}/requests/{requestId}
//   POST /api/v1/internal/households/{id}/requests/{requestId}/purchase-intents
// The tool never buys: checkout stays a separate, user-confirmed step. The intent's one-time
// confirmation token is dropped here so it never reaches the model or the mission history.
import { PrepareCartArgs, PrepareCartResult } from '@hs/contracts';
import { z } from 'zod';
import { peerCall, type ToolContext, type ToolDefinition } from './tool-context.ts';

const RequestStatus = z.looseObject({
  requestId: z.string(),
  status: z.string(),
  title: z.string().optional(),
});
const Intent = z.looseObject({ intentId: z.string(), cartprepJobId: z.string() });

const requestPath = (ctx: ToolContext, requestId: string) =>
  `/api/v1/internal/households/${encodeURIComponent(ctx.householdId)}/requests/${encodeURIComponent(requestId)}`;

export const prepareCart: ToolDefinition<typeof PrepareCartArgs, typeof PrepareCartResult> = {
  name: 'prepare_cart',
  description:
    'Starts cart preparation for an APPROVED purchase request (id pr_...). It never buys; if the request is not approved yet it says that a parent must approve it first.',
  args: PrepareCartArgs,
  result: PrepareCartResult,
  async run({ requestId }, ctx) {
    const read = await ctx.peers.gateway.call({
      method: 'GET',
      path: requestPath(ctx, requestId),
      schema: RequestStatus,
      ...peerCall(ctx),
    });
    const request = read.body;
    const name = request.title ? `"${request.title}" (${requestId})` : requestId;
    if (request.status === 'PENDING_APPROVAL')
      return {
        requestId,
        outcome: 'APPROVAL_NEEDED' as const,
        status: request.status,
        cartprepJobId: null,
        message: `Request ${name} is waiting for approval: approval by a parent is needed before I can prepare the cart.`,
      };
    if (request.status !== 'APPROVED')
      return {
        requestId,
        outcome: 'NOT_ELIGIBLE' as const,
        status: request.status,
        cartprepJobId: null,
        message: `Request ${name} is ${request.status}; only an APPROVED request can go to cart preparation.`,
      };
    const intent = await ctx.peers.gateway.call({
      method: 'POST',
      path: `${requestPath(ctx, requestId)}/purchase-intents`,
      body: {},
      schema: Intent,
      ...peerCall(ctx),
    });
    return {
      requestId,
      outcome: 'DISPATCHED' as const,
      status: 'CART_PREP',
      cartprepJobId: intent.body.cartprepJobId,
      message: `Cart preparation for ${name} started (job ${intent.body.cartprepJobId}).`,
    };
  },
};
