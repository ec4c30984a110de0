// The buy flow as the cart tools see it, through the gateway's internal routes with the mission
// owner as the acting user:
//   GET  /api/v1/internal/households/{id}/requests/{requestId}
//   POST /api/v1/internal/households/{id}/requests/{requestId}/purchase-intents
import { Cart, PurchaseFailure } from '@hs/contracts';
import { z } from 'zod';
import { peerCall, type ToolContext } from './tool-context.ts';

/** Only what the tools read; the gateway's other fields pass through unchecked. */
const RequestRead = z.looseObject({
  requestId: z.string(),
  status: z.string(),
  title: z.string().optional(),
  cartprepJobId: z.string().nullable().optional(),
  cart: Cart.nullable().optional(),
  lastFailure: PurchaseFailure.nullable().optional(),
});
export type RequestRead = z.infer<typeof RequestRead>;

const Intent = z.looseObject({ intentId: z.string(), cartprepJobId: z.string() });

const requestPath = (ctx: ToolContext, requestId: string) =>
  `/api/v1/internal/households/${encodeURIComponent(ctx.householdId)}/requests/${encodeURIComponent(requestId)}`;

export async function readPurchaseRequest(ctx: ToolContext, requestId: string): Promise<RequestRead> {
  const read = await ctx.peers.gateway.call({
    method: 'GET',
    path: requestPath(ctx, requestId),
    schema: RequestRead,
    ...peerCall(ctx),
  });
  return read.body;
}

/**
 * Starts cart preparation. The intent's one-time confirmation token is dropped here so it never
 * reaches the model or the mission history: checkout stays a separate, user-confirmed step.
 */
export async function startPurchaseIntent(ctx: ToolContext, requestId: string) {
  const intent = await ctx.peers.gateway.call({
    method: 'POST',
    path: `${requestPath(ctx, requestId)}/purchase-intents`,
    body: {},
    schema: Intent,
    ...peerCall(ctx),
  });
  return { intentId: intent.body.intentId, cartprepJobId: intent.body.cartprepJobId };
}
