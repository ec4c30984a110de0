// The purchase signals (spec part 6) follow an authoritative action on the gateway: an approval
// (USER_APPROVED_REQUEST) or a completed checkout (USER_CONFIRMED_FINAL_CHECKOUT). One that names
// its request is checked against where that request stands, so nobody can put a "checkout
// confirmed" on a mission's stream for a request still waiting for a parent.
import { type ClientEventRequest, PurchaseRequest, type PurchaseRequestStatus } from '@hs/contracts';
import { type Caller, conflict } from '@hs/service-kit';
import type { OrchestratorContext } from '../context.ts';

/** Where a request may stand once the signal's action was taken. */
const TAKEN: Partial<Record<ClientEventRequest['eventType'], readonly PurchaseRequestStatus[]>> = {
  USER_APPROVED_REQUEST: ['APPROVED', 'CART_PREP', 'CART_READY', 'COMPLETED'],
  USER_CONFIRMED_FINAL_CHECKOUT: ['COMPLETED'],
};

const ACTION: Partial<Record<ClientEventRequest['eventType'], string>> = {
  USER_APPROVED_REQUEST: 'follows its approval (POST .../approve)',
  USER_CONFIRMED_FINAL_CHECKOUT: 'follows its completed checkout (POST .../confirm-checkout)',
};

const RequestStatus = PurchaseRequest.pick({ requestId: true, status: true });

/**
 * 409 CONFLICT when the signal's request has not had its action taken, 404 when the household
 * has no such request (the gateway's answer, read as the sender). Other events pass; a purchase
 * signal always names its request (the contract requires it).
 */
export async function assertSignalFollowsAction(
  ctx: OrchestratorContext,
  input: { householdId: string; caller: Caller; event: ClientEventRequest; requestId: string },
): Promise<void> {
  const allowed = TAKEN[input.event.eventType];
  const purchaseId = input.event.requestId;
  if (!allowed || !purchaseId) return;
  const read = await ctx.peers.gateway.call({
    method: 'GET',
    path: `/api/v1/internal/households/${encodeURIComponent(input.householdId)}/requests/${encodeURIComponent(purchaseId)}`,
    schema: RequestStatus,
    requestId: input.requestId,
    caller: input.caller,
  });
  if (!allowed.includes(read.body.status))
    throw conflict(
      `Purchase request ${purchaseId} is ${read.body.status}: ${input.event.eventType} ${ACTION[input.event.eventType]}`,
    );
}
