import { isDeepStrictEqual } from 'node:util';
import type { CartFailedCallback, CartReadyCallback, PurchaseRequest } from '@hs/contracts';
import { conflict, notFound, nowIso } from '@hs/service-kit';
import { ABORT } from '@hs/store';
import type { GatewayContext } from '../context.ts';
import { canonicalCart, cartRefusal } from '../domain/purchase-request-cart.ts';
import { applyEvent } from '../domain/purchase-request-machine.ts';
import { publicRequest, type StoredPurchaseRequest } from '../domain/purchase-request-rules.ts';
import { owedEntry, owing, payOwedAudit } from './owed-audit.ts';
import { cartMismatchEntry, gateEntry, guarded, type RequestRef } from './purchase-gate.ts';
import { recoveredIntentEntry } from './start-purchase-intent.ts';

/** The lastFailure code of a cart refused for not matching the approval. */
const CART_REFUSED_CODE = 'SAFETY_VIOLATION' as const;
const CALLBACK_ACTOR = 'cartprep';

type Target = { householdId: string; requestId: string };
type Outcome = { next: StoredPurchaseRequest; refused?: string };

/**
 * cart-prep's result, as one atomic change of the request: a repeat of a callback already
 * applied (`replayed`) changes nothing and answers the request; a callback for another job than
 * the one the request waits for is 409; otherwise `apply` gives the next state, or a refusal
 * (a CRITICAL audit entry). The caller has checked the buy-flow token.
 */
async function applyCallback(
  ctx: GatewayContext,
  request: RequestRef,
  { householdId, requestId }: Target,
  action: 'CART_READY' | 'CART_FAILED',
  jobId: string,
  replayed: (r: StoredPurchaseRequest) => boolean,
  apply: (r: StoredPurchaseRequest, now: string) => Outcome,
  detail: Record<string, unknown>,
): Promise<PurchaseRequest> {
  const gate = { householdId, action, actorId: CALLBACK_ACTOR, targetId: requestId };
  if (!(await ctx.households.get(householdId))) throw notFound('Household not found');
  return guarded(ctx, request, gate, async () => {
    const now = nowIso();
    let replay = false;
    // Ids fixed once: the update below may run more than once.
    const owed = {
      gate: owedEntry(request, gateEntry(gate, 'ALLOWED')),
      mismatch: owedEntry(request, gateEntry(gate, 'ALLOWED')),
    };
    const { doc } = await ctx.buyflow.requests.change(requestId, (r) => {
      replay = false;
      if (r.householdId !== householdId) return ABORT;
      if (replayed(r)) {
        replay = true;
        return ABORT;
      }
      if (r.status === 'CART_PREP' && r.cartprepJobId !== jobId)
        throw conflict(`Callback is for job ${jobId}, but the request is waiting for job ${r.cartprepJobId}`);
      const applied = apply(r, now);
      // A dispatch still pending means the route that started the intent never recorded it (a
      // crash after sending the job): the callback clearing it owes the intent's entry too.
      const outcome =
        r.dispatchPending && r.intentId
          ? { ...applied, next: owing(applied.next, recoveredIntentEntry(r)) }
          : applied;
      // The gate's entries are owed with the change they record (flows/owed-audit.ts).
      if (!outcome.refused)
        return owing(outcome.next, { ...owed.gate, entry: gateEntry(gate, 'ALLOWED', { jobId, ...detail }) });
      const reason = outcome.refused;
      return owing(
        owing(outcome.next, {
          ...owed.gate,
          entry: gateEntry(gate, 'REFUSED', { jobId, reason, ...detail }, 'CRITICAL'),
        }),
        { ...owed.mismatch, entry: cartMismatchEntry(gate, { jobId, reason }) },
      );
    });
    if (!doc || doc.householdId !== householdId) throw notFound('Purchase request not found');
    if (!replay) await payOwedAudit(ctx, doc);
    return publicRequest(doc);
  });
}

/** The cart is ready: CART_PREP → CART_READY, or back to APPROVED when it doesn't match the approval. */
export function cartReady(
  ctx: GatewayContext,
  request: RequestRef,
  target: Target,
  { jobId, cart }: CartReadyCallback,
): Promise<PurchaseRequest> {
  return applyCallback(
    ctx,
    request,
    target,
    'CART_READY',
    jobId,
    (r) =>
      // The same cart again (a retry of a lost answer); another cart for this job is 409 below.
      (r.cartprepJobId === jobId &&
        (r.status === 'CART_READY' || r.status === 'COMPLETED') &&
        isDeepStrictEqual(r.cart, canonicalCart(cart))) ||
      // This job's cart was refused before: same answer, no second transition.
      (r.status !== 'CART_PREP' &&
        r.lastFailure?.jobId === jobId &&
        r.lastFailure.errorCode === CART_REFUSED_CODE),
    (r, now) => {
      // Only a cart for the job the request waits for is judged; anything else is refused below.
      const refused =
        r.status === 'CART_PREP' && r.cartprepJobId === jobId
          ? cartRefusal(r, cart, ctx.config.allowPrivateMerchantHosts)
          : null;
      if (!refused)
        return {
          next: applyEvent(r, 'cartReady', { cart: canonicalCart(cart), dispatchPending: false }, now),
        };
      const message = `Cart refused: ${refused}. The request is back to APPROVED; start a new purchase to retry.`;
      const lastFailure = { jobId, errorCode: CART_REFUSED_CODE, message, at: now };
      return { next: applyEvent(r, 'cartFailed', { dispatchPending: false, lastFailure }, now), refused };
    },
    { subtotal: cart.subtotal, currency: cart.currency, merchantDomain: cart.merchantDomain },
  );
}

/** Cart preparation failed: CART_PREP → APPROVED with lastFailure, so a new intent can retry. */
export function cartFailed(
  ctx: GatewayContext,
  request: RequestRef,
  target: Target,
  body: CartFailedCallback,
): Promise<PurchaseRequest> {
  const { jobId, errorCode } = body;
  const message = body.message ?? null;
  const evidence = body.evidence ?? null;
  return applyCallback(
    ctx,
    request,
    target,
    'CART_FAILED',
    jobId,
    (r) => r.lastFailure?.jobId === jobId && r.status !== 'CART_PREP',
    (r, now) => ({
      next: applyEvent(
        r,
        'cartFailed',
        { dispatchPending: false, lastFailure: { jobId, errorCode, message, evidence, at: now } },
        now,
      ),
    }),
    { errorCode, message },
  );
}
