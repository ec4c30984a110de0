import type { PurchaseRequest } from '@hs/contracts';
import { conflict, notFound, nowIso } from '@hs/service-kit';
import type { GatewayContext } from '../context.ts';
import {
  checkConfirmationToken,
  hashConfirmationToken,
  spentUnderThisKey,
  TOKEN_MESSAGES,
} from '../domain/confirmation-token.ts';
import { applyEvent, assertCanApply } from '../domain/purchase-request-machine.ts';
import { publicRequest } from '../domain/purchase-request-rules.ts';
import { owedEntry, owing, payOwedAudit } from './owed-audit.ts';
import { type Gate, gateEntry, type RequestRef } from './purchase-gate.ts';

/**
 * Confirming the checkout is three named steps; the caller has checked membership and role:
 *  1. check the token (decisions' order: missing 409; unknown, superseded, expired or another
 *     actor's 403; used 409) and that the request is CART_READY (409);
 *  2. spend the token: one atomic compare-and-set, so of concurrent confirmations exactly one
 *     goes on (the one place money is committed; nothing after it is undone); under an
 *     Idempotency-Key the same update records which key spent it (`usedUnder`, a hash);
 *  3. move the request to COMPLETED with the gate's audit entry owed in the same atomic update,
 *     then hand it to the audit outbox (flows/owed-audit.ts).
 * A keyed retry whose first attempt spent the token under the same key (the same actor and
 * request: the key's scope names both) and completed the request, but died before its reply was
 * stored, gets that request back (`replayed`): nothing is spent or changed again, and no second
 * ALLOWED entry is written (the first attempt owed it with the change; what it left owed is paid).
 * If that attempt died between the spend and the completion (the request still CART_READY), the
 * retry completes it (step 3 alone: the spend was this key's), as the member asked. Any other
 * presentation of a used token stays 409.
 */
export async function confirmCheckout(
  ctx: GatewayContext,
  request: RequestRef,
  gate: Gate & { targetId: string; actorId: string },
  token: string | undefined,
  usedUnder?: string,
): Promise<{ body: PurchaseRequest; replayed: boolean }> {
  const { requests, tokens } = ctx.buyflow;
  const { householdId, targetId: requestId, actorId } = gate;
  const found = await requests.get(householdId, requestId);
  if (!found) throw notFound('Purchase request not found');
  const tokenHash = token ? hashConfirmationToken(token) : '';
  const stored = token ? await tokens.find(tokenHash) : null;
  const checked = checkConfirmationToken(token, stored, {
    householdId,
    requestId,
    intentId: found.intentId,
    actorId,
    now: Date.now(),
    ...(usedUnder ? { usedUnder } : {}),
  });
  const spentByThisKey = spentUnderThisKey(checked, usedUnder);
  if (spentByThisKey && found.status === 'COMPLETED') {
    // This key's first attempt completed the request: its answer.
    await payOwedAudit(ctx, found);
    return { body: publicRequest(found), replayed: true };
  }
  assertCanApply('confirmCheckout', found.status);

  const now = nowIso();
  // A first attempt that died between its spend and the completion is rolled forward by its own
  // keyed retry: the spend already happened under this key, so it is not made (or refused) again.
  // (A request that left CART_READY since, cancelled say, was refused just above like any other.)
  if (!spentByThisKey && !(await tokens.spend(tokenHash, now, usedUnder)))
    throw conflict(TOKEN_MESSAGES.used);

  const owed = owedEntry(
    request,
    gateEntry(gate, 'ALLOWED', {
      intentId: found.intentId,
      subtotal: found.cart?.subtotal ?? null,
      currency: found.currency,
    }),
  );
  const { doc } = await requests.change(requestId, (r) =>
    owing(applyEvent(r, 'confirmCheckout', {}, now), owed),
  );
  if (!doc) throw notFound('Purchase request not found');
  await payOwedAudit(ctx, doc);
  return { body: publicRequest(doc), replayed: false };
}
