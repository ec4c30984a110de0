// Speaks to the cart-prep service (services/cartprep, POST /api/v1/cartprep/jobs) through the
// typed peer client: CARTPREP_INTERNAL_TOKEN, request id, timeout, reply validation, 502/504.
import { CartprepJob, type CreateCartprepJobRequest } from '@hs/contracts';
import type { PeerClient } from '@hs/service-kit';
import type { StoredPurchaseRequest } from '../domain/purchase-request-rules.ts';

export function createCartprepClient(peer: PeerClient) {
  return {
    /** Idempotent on jobId: dispatching the same job twice creates it once. */
    async dispatch(request: StoredPurchaseRequest, requestId?: string): Promise<CartprepJob> {
      if (!request.cartprepJobId) throw new Error('request has no cart-prep job id');
      const body: CreateCartprepJobRequest = {
        jobId: request.cartprepJobId,
        householdId: request.householdId,
        requestId: request.requestId,
        url: request.url,
        size: request.size,
        quantity: request.quantity,
        title: request.title,
        unitPrice: request.price,
        currency: request.currency,
      };
      const reply = await peer.call({
        method: 'POST',
        path: '/api/v1/cartprep/jobs',
        body,
        schema: CartprepJob,
        ...(requestId ? { requestId } : {}),
      });
      return reply.body;
    },
  };
}

export type CartprepClient = ReturnType<typeof createCartprepClient>;
