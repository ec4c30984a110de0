import type { CreatePurchaseRequest, Member, PurchaseRequest } from '@hs/contracts';
import { keyedId, newId, notFound, nowIso } from '@hs/service-kit';
import { householdHasOffer } from '../adapters/offer-lookup.ts';
import type { GatewayContext } from '../context.ts';
import {
  listOnHousehold,
  newPurchaseRequest,
  publicRequest,
  requestTotal,
  requireGate,
  type StoredPurchaseRequest,
} from '../domain/purchase-request-rules.ts';
import { owedEntry, owing, payOwedAudit } from './owed-audit.ts';
import { gateEntry, guarded, type RequestRef } from './purchase-gate.ts';

/**
 * Creating a purchase request, for the app's route and the stylist's (internal) route alike:
 * the member's role is checked (CHILD refused and audited), the body is checked against the
 * merchant-URL rule, the request starts PENDING_APPROVAL and joins the household's list, and an
 * Idempotency-Key replays the first result. Nothing here approves, prepares a cart or pays.
 */
export async function createPurchaseRequest(
  ctx: GatewayContext,
  request: RequestRef,
  input: {
    householdId: string;
    member: Member;
    body: CreatePurchaseRequest;
    idempotency: { scope: string; key: string | undefined };
  },
): Promise<{ status: number; body: PurchaseRequest; replayed: boolean }> {
  const { householdId, member, body } = input;
  const userId = member.memberId;
  const gate = { householdId, action: 'CREATE_PURCHASE_REQUEST' as const, actorId: userId, targetId: null };
  return guarded(ctx, request, gate, async () => {
    requireGate(member, 'create');
    const { scope, key } = input.idempotency;
    return ctx.buyflow.idempotency.run(scope, key, body, async () => {
      // Under a key the request's id is the key's: a retry whose first attempt saved the request
      // but never answered (a crash, its lease run out) finds it instead of making a second one.
      const keyed = key ? keyedId('pr', key, [scope, householdId], body) : null;
      const saved = keyed ? await ctx.buyflow.requests.get(householdId, keyed) : null;
      if (saved && ctx.buyflow.idempotency.madeUnderLiveKey(saved.createdAt)) return finishCreate(ctx, saved);
      // A key used again after its life (24 h) makes a new request, as any other create.
      const requestId = keyed && !saved ? keyed : newId('pr');
      const now = nowIso();
      const created = newPurchaseRequest(
        { requestId, householdId, requesterId: userId },
        body,
        now,
        ctx.config.allowPrivateMerchantHosts,
      );
      // The offer it came from must be this household's: never another's, nor a made-up id.
      const caller = { userId, role: member.role, email: null };
      if (
        created.offerId &&
        !(await householdHasOffer(ctx.peers.commerce, householdId, created.offerId, caller, request.id))
      )
        throw notFound('Offer not found in this household');
      // The request document is the source of truth, created owing its gate entry
      // (flows/owed-audit.ts); the household's list follows it.
      const owed = owing(
        created,
        owedEntry(
          request,
          gateEntry({ ...gate, targetId: created.requestId }, 'ALLOWED', {
            title: created.title,
            total: requestTotal(created),
            currency: created.currency,
            merchantDomain: created.merchantDomain,
          }),
        ),
      );
      await ctx.buyflow.requests.create(owed);
      return finishCreate(ctx, owed);
    });
  });
}

/** The steps after the request is saved, each one safe to run again: listing it, its audit entry. */
async function finishCreate(ctx: GatewayContext, saved: StoredPurchaseRequest) {
  await ctx.households.change(saved.householdId, (h) => listOnHousehold(h, saved.requestId, nowIso()));
  await payOwedAudit(ctx, saved);
  return { status: 201, body: publicRequest(saved) };
}
