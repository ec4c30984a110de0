// The buy flow as the agent's tools see it, through the gateway's internal routes with the
// mission owner as the acting user:
//   POST /api/v1/internal/households/{id}/requests
//   GET  /api/v1/internal/households/{id}/requests/{requestId}
//   POST /api/v1/internal/households/{id}/requests/{requestId}/purchase-intents
import { AgentPurchaseIntent, type CreatePurchaseRequest, PurchaseRequest } from '@hs/contracts';
import type { z } from 'zod';
import { peerCall, type ToolContext } from './tool-context.ts';

/** What the tools read of the gateway's PurchaseRequest, checked by the contract's field schemas. */
const RequestRead = PurchaseRequest.pick({
  requestId: true,
  status: true,
  title: true,
  cartprepJobId: true,
  cart: true,
  lastFailure: true,
}).partial({ title: true, cartprepJobId: true, cart: true, lastFailure: true });
export type RequestRead = z.infer<typeof RequestRead>;

const Intent = AgentPurchaseIntent.pick({ intentId: true, cartprepJobId: true });

const requestsPath = (ctx: ToolContext) =>
  `/api/v1/internal/households/${encodeURIComponent(ctx.householdId)}/requests`;
const requestPath = (ctx: ToolContext, requestId: string) =>
  `${requestsPath(ctx)}/${encodeURIComponent(requestId)}`;

/**
 * Raises a purchase request (PENDING_APPROVAL) as the mission owner. `idempotencyKey` makes a
 * repeat (the user asks again, a retried turn) return the same request, as it is now, instead of
 * a second one.
 */
export async function createPurchaseRequest(
  ctx: ToolContext,
  body: CreatePurchaseRequest,
  idempotencyKey: string,
): Promise<RequestRead> {
  const call = peerCall(ctx);
  const created = await ctx.peers.gateway.call({
    method: 'POST',
    path: requestsPath(ctx),
    body,
    schema: RequestRead,
    ...call,
    headers: { ...call.headers, 'idempotency-key': idempotencyKey },
  });
  // A repeat replays the first answer, as the request stood then (PENDING_APPROVAL): what the
  // user is told must be where it stands now (approved, bought, cancelled).
  if (created.headers['idempotent-replayed'] === 'true')
    return readPurchaseRequest(ctx, created.body.requestId);
  return created.body;
}

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
