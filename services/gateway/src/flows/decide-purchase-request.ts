import type { Member, PurchaseRequest } from '@hs/contracts';
import { notFound, nowIso, runFlow } from '@hs/service-kit';
import type { GatewayContext } from '../context.ts';
import { applyEvent, assertCanApply, SPENDING_STATES } from '../domain/purchase-request-machine.ts';
import {
  publicRequest,
  requestTotal,
  requireCanCancel,
  requireGate,
  type StoredPurchaseRequest,
} from '../domain/purchase-request-rules.ts';
import { checkPolicyForRequest, ledgerKey, monthsSince } from '../domain/spending-policy.ts';
import { reserveBudget } from './budget-reservation.ts';
import { owedEntry, owing, payOwedAudit } from './owed-audit.ts';
import { type Gate, gateEntry, type RequestRef } from './purchase-gate.ts';

/** A decision on one request by one member; the caller has checked membership and loaded it. */
export type Decision = { member: Member; userId: string; found: StoredPurchaseRequest };

/**
 * Approving is three named steps:
 *  1. check: PARENT_GUARDIAN, PENDING_APPROVAL, and the requester's spending policy;
 *  2. reserve the total in the month's ledger (atomic on the ledger); over the monthly cap, give
 *     back reservations other approvals left behind and try once more (flows/budget-reservation.ts);
 *     undo: release it when the request is closed (rejected, cancelled, gone). A request still
 *     PENDING_APPROVAL keeps it: step 3 may have failed with its write still on its way, and the
 *     reservation is judged once that can no longer land (RESERVATION_FENCE_MS);
 *  3. move the request to APPROVED with the gate's audit entry owed in the same atomic update,
 *     then hand the entry to the audit outbox (flows/owed-audit.ts), and settle the reservation.
 */
export async function approvePurchaseRequest(
  ctx: GatewayContext,
  request: RequestRef,
  { member, userId, found }: Decision,
): Promise<PurchaseRequest> {
  const { requests, policies } = ctx.buyflow;
  const now = nowIso();
  const state = { budgetKey: '', approved: undefined as StoredPurchaseRequest | undefined };
  await runFlow(
    [
      {
        name: 'check approval',
        run: async () => {
          requireGate(member, 'approve');
          assertCanApply('approve', found.status);
        },
      },
      {
        name: 'reserve budget',
        run: async (s) => {
          const policy = await policies.getPolicy(found.householdId, found.requesterId);
          checkPolicyForRequest(policy, found);
          s.budgetKey = await reserveBudget(ctx.buyflow, found, policy, now);
        },
        undo: async (s) => {
          const current = await requests.get(found.householdId, found.requestId);
          // Still pending: this approval's own write may land yet (judged later). Approved by a
          // racing approval: its reservation is this one only when it was made in the same ledger.
          const pending = current?.status === 'PENDING_APPROVAL';
          const heldHere =
            !!current && SPENDING_STATES.includes(current.status) && current.budgetKey === s.budgetKey;
          if (!pending && !heldHere) await policies.release(s.budgetKey, found.requestId);
        },
      },
      {
        name: 'approve request',
        run: async (s) => {
          const entry = owedEntry(
            request,
            gateEntry(gateOf(found, 'APPROVE_PURCHASE_REQUEST', userId), 'ALLOWED', {
              total: requestTotal(found),
              currency: found.currency,
              requesterId: found.requesterId,
            }),
          );
          const { doc } = await requests.change(found.requestId, (r) =>
            owing(
              applyEvent(r, 'approve', { approvedBy: userId, approvedAt: now, budgetKey: s.budgetKey }, now),
              entry,
            ),
          );
          if (!doc) throw notFound('Purchase request not found');
          await payOwedAudit(ctx, doc);
          s.approved = doc;
          // Best effort: a reservation left unsettled is settled when it is next judged.
          await policies.settle(s.budgetKey, found.requestId).catch(() => {});
        },
      },
    ],
    state,
  );
  return publicRequest(state.approved as StoredPurchaseRequest);
}

/**
 * Reject (PARENT_GUARDIAN) or cancel (the requester or a PARENT_GUARDIAN): move the request to
 * its final state, then give back a budget reservation it held. Nothing to undo: the move is
 * one atomic update and a release is idempotent.
 */
export async function closePurchaseRequest(
  ctx: GatewayContext,
  request: RequestRef,
  event: 'reject' | 'cancel',
  { member, userId, found }: Decision,
  reason: string | null,
): Promise<PurchaseRequest> {
  if (event === 'reject') requireGate(member, 'reject');
  else requireCanCancel(member, found);
  const now = nowIso();
  const action = event === 'reject' ? 'REJECT_PURCHASE_REQUEST' : 'CANCEL_PURCHASE_REQUEST';
  const entry = owedEntry(request, gateEntry(gateOf(found, action, userId), 'ALLOWED', { reason }));
  const { doc } = await ctx.buyflow.requests.change(found.requestId, (r) =>
    owing(applyEvent(r, event, {}, now), entry),
  );
  if (!doc) throw notFound('Purchase request not found');
  await payOwedAudit(ctx, doc);
  // Besides the ledger its approval reserved in (budgetKey), an approval that timed out or lost a
  // race (across midnight at a month's end) can have left its amount in any month's ledger since
  // the request was made: releasing is idempotent, so every ledger it could be in gives it back.
  const months = monthsSince(doc.createdAt, now).map((month) =>
    ledgerKey(doc.householdId, doc.requesterId, month, doc.currency),
  );
  const keys = [...new Set([...(doc.budgetKey ? [doc.budgetKey] : []), ...months])];
  for (const key of keys) await ctx.buyflow.policies.release(key, doc.requestId);
  return publicRequest(doc);
}

const gateOf = (doc: StoredPurchaseRequest, action: Gate['action'], userId: string): Gate => ({
  householdId: doc.householdId,
  action,
  actorId: userId,
  targetId: doc.requestId,
});
