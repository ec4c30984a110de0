import type { PurchaseIntent } from '@hs/contracts';
import { conflict, isAppError, newId, notFound, nowIso } from '@hs/service-kit';
import { ABORT } from '@hs/store';
import type { GatewayContext } from '../context.ts';
import { newConfirmationToken } from '../domain/confirmation-token.ts';
import { applyEvent, assertCanApply } from '../domain/purchase-request-machine.ts';
import type { OwedAudit, StoredPurchaseRequest } from '../domain/purchase-request-rules.ts';
import { owedEntry, owing, payOwedAudit } from './owed-audit.ts';
import { auditGate, type Gate, gateEntry, isRefusal, type RequestRef } from './purchase-gate.ts';

/** A fresh one-time checkout token for the actor of the request's current intent. */
export async function issueConfirmationToken(
  ctx: GatewayContext,
  ids: { householdId: string; requestId: string; intentId: string; actorId: string },
): Promise<{ confirmationToken: string; expiresAt: string }> {
  const now = nowIso();
  const expiresAt = new Date(Date.now() + ctx.config.buyflow.checkoutTokenTtlSeconds * 1000).toISOString();
  const { token, tokenHash } = newConfirmationToken();
  await ctx.buyflow.tokens.save({ tokenHash, ...ids, expiresAt, usedAt: null, createdAt: now });
  return { confirmationToken: token, expiresAt };
}

/**
 * Creating a purchase intent is three named steps:
 *  1. issue the confirmation token (stored as a hash; harmless if nothing follows),
 *  2. move the request APPROVED → CART_PREP with the intent and a job id derived from it,
 *     marked `dispatchPending` (the atomic update makes one of two racing intents win),
 *  3. dispatch the job to cart-prep (idempotent on the job id), then clear `dispatchPending`.
 * Undo of step 3 failing (cart-prep down or refusing): the request goes back to APPROVED with
 * lastFailure set, as the table's cartFailed transition does, and the caller gets 502/504.
 * A crash between 2 and 3 leaves the request CART_PREP with `dispatchPending`: the recovery
 * sweep (at boot and every 15 s) re-sends the same job id, so no job is lost or doubled.
 * The caller has checked membership and role.
 */
export async function startPurchaseIntent(
  ctx: GatewayContext,
  request: RequestRef,
  gate: Gate & { targetId: string; actorId: string },
): Promise<PurchaseIntent> {
  const { householdId, targetId: requestId, actorId } = gate;
  const found = await ctx.buyflow.requests.get(householdId, requestId);
  if (!found) throw notFound('Purchase request not found');
  // The caller's own purchase is under way: their first attempt's answer (and its token) may never
  // have reached them (a restart, a 504). Say where a token for it comes from.
  if (found.intentActorId === actorId && (found.status === 'CART_PREP' || found.status === 'CART_READY'))
    throw conflict(
      `Your purchase of this request is already ${found.status === 'CART_PREP' ? 'being prepared' : 'ready'} (intent ${found.intentId}); get a checkout confirmation token for it with POST /api/v1/households/${householdId}/requests/${requestId}/confirmation-token`,
    );
  assertCanApply('startCartPrep', found.status);

  const intentId = newId('pi');
  const cartprepJobId = `cpj_${intentId.slice(3)}`;
  const { confirmationToken, expiresAt } = await issueConfirmationToken(ctx, {
    householdId,
    requestId,
    intentId,
    actorId,
  });
  const { doc } = await ctx.buyflow.requests.change(requestId, (r) =>
    applyEvent(
      r,
      'startCartPrep',
      { intentId, cartprepJobId, intentActorId: actorId, dispatchPending: true, cart: null },
      nowIso(),
    ),
  );
  if (!doc) throw notFound('Purchase request not found');

  const allowed = owedEntry(
    request,
    gateEntry(gate, 'ALLOWED', { intentId, cartprepJobId, expiresAt }),
    intentAuditId(intentId),
  );
  try {
    await dispatch(ctx, doc, allowed, request.id);
  } catch (err) {
    // The dispatch sweep may have got the job through meanwhile (this route's dispatch outlived
    // its grace): then the purchase is under way, and the caller gets its intent after all.
    if (!(await revertDispatch(ctx, doc, err)) && (await dispatchedMeanwhile(ctx, doc))) {
      // cart-prep may have called back before any sweep owed the entry: owe it here (same id).
      const { doc: now } = await ctx.buyflow.requests.change(doc.requestId, (r) => owing(r, allowed));
      if (now) await payOwedAudit(ctx, now);
      return { intentId, requestId, actorId, cartprepJobId, confirmationToken, expiresAt };
    }
    // A refusal by cart-prep (e.g. domain not allowed) is audited by `guarded`.
    if (!isRefusal(err))
      await auditGate(ctx, request, gate, 'FAILED', {
        intentId,
        cartprepJobId,
        reason: (err as Error).message,
      });
    throw err;
  }
  return { intentId, requestId, actorId, cartprepJobId, confirmationToken, expiresAt };
}

/**
 * The id of an intent's ALLOWED entry: the route and the dispatch sweep may both owe it (a route
 * whose dispatch outlived the sweep's grace), and the ledger then records it once.
 */
const intentAuditId = (intentId: string) => `aud_intent_${intentId}`.slice(0, 68);

/**
 * The intent's ALLOWED entry, owed by whoever finds that its route never recorded it (the
 * dispatch sweep, or cart-prep's callback clearing a dispatch still pending): under the route's
 * own event id, so the ledger keeps one if both did.
 */
export function recoveredIntentEntry(r: StoredPurchaseRequest): OwedAudit {
  const gate = {
    householdId: r.householdId,
    action: 'CREATE_PURCHASE_INTENT' as const,
    actorId: r.intentActorId,
    targetId: r.requestId,
  };
  return owedEntry(
    { id: 'dispatch-recovery' },
    gateEntry(gate, 'ALLOWED', { intentId: r.intentId, cartprepJobId: r.cartprepJobId, recovered: true }),
    intentAuditId(r.intentId ?? r.requestId),
  );
}

/**
 * Step 3: send the job; once cart-prep has it, clear `dispatchPending` and owe the gate's ALLOWED
 * entry in the same write (flows/owed-audit.ts), whatever cart-prep's callback changed meanwhile.
 */
async function dispatch(
  ctx: GatewayContext,
  doc: StoredPurchaseRequest,
  allowed: OwedAudit,
  requestId?: string,
): Promise<void> {
  await ctx.buyflow.cartprep.dispatch(doc, requestId);
  const { doc: after } = await ctx.buyflow.requests.change(doc.requestId, (r) =>
    owing(
      r.cartprepJobId === doc.cartprepJobId && r.dispatchPending ? { ...r, dispatchPending: false } : r,
      allowed,
    ),
  );
  if (after) await payOwedAudit(ctx, after);
}

/**
 * Undo of step 2 when cart-prep never got the job: back to APPROVED so a new intent can retry.
 * False when there was nothing to undo (the sweep dispatched it, or the request moved on).
 */
async function revertDispatch(
  ctx: GatewayContext,
  doc: StoredPurchaseRequest,
  err: unknown,
): Promise<boolean> {
  const at = nowIso();
  const message = `Cart preparation could not be started: ${isAppError(err) ? err.message : 'cart-prep failed'}`;
  const errorCode =
    isAppError(err) && err.code === 'POLICY_VIOLATION' ? 'DOMAIN_NOT_ALLOWED' : 'INTERNAL_ERROR';
  // Only a job still waiting for its dispatch: one the sweep got through is cart-prep's now.
  const { changed } = await ctx.buyflow.requests.change(doc.requestId, (r) =>
    r.status === 'CART_PREP' && r.cartprepJobId === doc.cartprepJobId && r.dispatchPending
      ? applyEvent(
          r,
          'cartFailed',
          { dispatchPending: false, lastFailure: { jobId: doc.cartprepJobId, errorCode, message, at } },
          at,
        )
      : ABORT,
  );
  return changed;
}

/** Whether this intent's job reached cart-prep after all (the sweep sent it): the request went on with it. */
async function dispatchedMeanwhile(ctx: GatewayContext, doc: StoredPurchaseRequest): Promise<boolean> {
  const now = await ctx.buyflow.requests.get(doc.householdId, doc.requestId);
  return (
    !!now &&
    now.cartprepJobId === doc.cartprepJobId &&
    !now.dispatchPending &&
    now.lastFailure?.jobId !== doc.cartprepJobId &&
    ['CART_PREP', 'CART_READY', 'COMPLETED'].includes(now.status)
  );
}

/**
 * Re-sends jobs a crash may have left undispatched. Only requests older than a route's whole
 * dispatch (two asks of INTERNAL_API_TIMEOUT_SECONDS each, and 5 s to spare; 25 s by default), so
 * a request still in its route is not raced: a route failing while the sweep's send of the same
 * job was in flight put the request back to APPROVED as cart-prep took the job. Cart-prep dedupes
 * on the job id; a request that left CART_PREP in the meantime just loses its flag.
 */
export async function recoverDispatches(ctx: GatewayContext): Promise<number> {
  const grace = 2 * ctx.config.internalTimeoutMs + 5_000;
  const before = new Date(Date.now() - grace).toISOString();
  let sent = 0;
  for (const r of await ctx.buyflow.requests.pendingDispatch(before)) {
    // A request that left CART_PREP meanwhile just loses its flag: cart-prep's callback, which
    // moved it on, owed the intent's entry itself when it found the dispatch pending.
    if (r.status !== 'CART_PREP') {
      await ctx.buyflow.requests.change(r.requestId, (cur) =>
        cur.dispatchPending ? { ...cur, dispatchPending: false } : ABORT,
      );
      continue;
    }
    // The route that made the intent never got to record it: the sweep does, as recovered.
    const allowed = recoveredIntentEntry(r);
    try {
      await dispatch(ctx, r, allowed);
      sent++;
    } catch (err) {
      ctx.logger?.warn({ err, requestId: r.requestId }, 'cart-prep dispatch still failing; will retry');
    }
  }
  return sent;
}
