// A gate's audit entry must not be lost when the change it records has landed. Written as a
// second store write after the change, a crash or a store failure between the two left an
// approval (say) with no entry, and the retry of an approval is a 409. So the entry is written
// INTO the request's own atomic update (owed), handed to the audit outbox under the id it was
// given there, then struck off. Whatever interrupts that, the recovery sweep finishes it; the
// outbox and the ledger dedupe on the id, so an entry is never recorded twice.
import type { AuditInput } from '@hs/audit-client';
import { newAuditEventId } from '@hs/audit-client';
import { ABORT } from '@hs/store';
import type { GatewayContext } from '../context.ts';
import type { OwedAudit, StoredPurchaseRequest } from '../domain/purchase-request-rules.ts';
import type { RequestRef } from './purchase-gate.ts';

/** Owed entries are left to the sweep only once their request is this old: its route may still be paying them. */
const SETTLE_GRACE_MS = 10_000;

/**
 * A new owed entry, its id fixed now: `owing` may run more than once inside one atomic update.
 * `eventId`: for an entry two writers may each owe for the same fact (the intent's route and the
 * dispatch sweep), an id derived from that fact, so the ledger records it once.
 */
export const owedEntry = (
  request: RequestRef,
  entry: AuditInput,
  eventId = newAuditEventId(),
): OwedAudit => ({
  eventId,
  entry,
  httpRequestId: request.id,
});

/** The changed request, owing `owed` besides what it owed already (pure, for inside an update). */
export function owing(next: StoredPurchaseRequest, owed: OwedAudit): StoredPurchaseRequest {
  return { ...next, auditOwed: [...(next.auditOwed ?? []), owed], auditPending: true };
}

/**
 * Hands the request's owed entries to the audit outbox, then strikes them off. Never throws: the
 * change already stands, and what is still owed is the sweep's.
 */
export async function payOwedAudit(ctx: GatewayContext, doc: StoredPurchaseRequest): Promise<void> {
  const owed = doc.auditOwed ?? [];
  if (owed.length === 0) return;
  try {
    for (const o of owed) await ctx.audit.record(doc.householdId, o.entry, o.httpRequestId, o.eventId);
    const paid = new Set(owed.map((o) => o.eventId));
    await ctx.buyflow.requests.change(doc.requestId, (r) => {
      const left = (r.auditOwed ?? []).filter((o) => !paid.has(o.eventId));
      if (left.length === (r.auditOwed ?? []).length) return ABORT;
      // updatedAt stays: it is the request's own clock, not the bookkeeping's.
      return { ...r, auditOwed: left, auditPending: left.length > 0 };
    });
  } catch (err) {
    ctx.logger?.warn(
      { err, purchaseRequestId: doc.requestId },
      'audit entry kept owed on the request; the recovery sweep records it',
    );
  }
}

/** Records entries an interrupted route left owed (requests untouched for SETTLE_GRACE_MS). */
export async function recoverOwedAudits(ctx: GatewayContext): Promise<number> {
  const before = new Date(Date.now() - SETTLE_GRACE_MS).toISOString();
  const owing = await ctx.buyflow.requests.owingAudit(before);
  for (const r of owing) await payOwedAudit(ctx, r);
  return owing.length;
}
