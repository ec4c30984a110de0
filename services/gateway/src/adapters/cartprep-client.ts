// Speaks to the cart-prep service (services/cartprep, POST /api/v1/cartprep/jobs) through the
// typed peer client: CARTPREP_INTERNAL_TOKEN, request id, timeout, reply validation, 502/504.
import { CartprepJob, type CreateCartprepJobRequest } from '@hs/contracts';
import { isAppError, type PeerClient } from '@hs/service-kit';
import type { StoredPurchaseRequest } from '../domain/purchase-request-rules.ts';

/** How long the second ask of a dispatch whose first timed out may take. */
const RECHECK_AFTER_TIMEOUT_MS = 2000;

export function createCartprepClient(peer: PeerClient) {
  return {
    /** Idempotent on jobId: dispatching the same job twice creates it once; a lost answer is asked once more. */
    async dispatch(request: StoredPurchaseRequest, requestId?: string): Promise<CartprepJob> {
      if (!request.cartprepJobId) throw new Error('request has no cart-prep job id');
      const body: CreateCartprepJobRequest = {
        jobId: request.cartprepJobId,
        householdId: request.householdId,
        requestId: request.requestId,
        // Cart-prep bounds each user's jobs across their households by it.
        ...(request.intentActorId ? { actorId: request.intentActorId } : {}),
        url: request.url,
        size: request.size,
        quantity: request.quantity,
        title: request.title,
        unitPrice: request.price,
        currency: request.currency,
      };
      const send = (timeoutMs?: number) =>
        peer.call({
          method: 'POST',
          path: '/api/v1/cartprep/jobs',
          body,
          schema: CartprepJob,
          ...(requestId ? { requestId } : {}),
          ...(timeoutMs ? { timeoutMs } : {}),
        });
      try {
        return (await send()).body;
      } catch (err) {
        // No answer (a timeout, a connection cut mid-reply) says nothing of whether cart-prep made
        // the job: asked again with the same jobId it answers with the one it has, or makes it.
        // Without this the caller took the job for never made, and the job ran anyway for a
        // request put back to APPROVED, its callbacks refused (an orphan cart, a false alarm).
        // A 503 is as unsure: a Firestore write that timed out "may or may not have been saved".
        if (!isAppError(err) || ![502, 503, 504].includes(err.status)) throw err;
        // After a timeout the second ask is short: a cart-prep that has the job answers it at
        // once, and one that hung through the first wait would only double the member's wait.
        if (err.status !== 504) return (await send()).body;
        // Still no answer: the first timeout says how long the member waited, not the recheck's.
        return (
          await send(RECHECK_AFTER_TIMEOUT_MS).catch((again: unknown) => {
            throw isAppError(again) && again.status === 504 ? err : again;
          })
        ).body;
      }
    },
  };
}

export type CartprepClient = ReturnType<typeof createCartprepClient>;
