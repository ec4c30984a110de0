// Reads active offers from the commerce service's internal search (POST /api/v1/search) for
// curation and the feed. Both treat commerce as optional: callers catch and carry on.
import { type Offer, OfferPage, type SearchOffersRequest } from '@hs/contracts';
import type { PeerClient } from '@hs/service-kit';

export function createCommerceOffers(commerce: PeerClient, timeoutMs: number) {
  return {
    async search(request: SearchOffersRequest, requestId?: string): Promise<Offer[]> {
      const reply = await commerce.call({
        method: 'POST',
        path: '/api/v1/search',
        body: request,
        schema: OfferPage,
        timeoutMs,
        ...(requestId ? { requestId } : {}),
      });
      return reply.body.items;
    },
  };
}

export type CommerceOffers = ReturnType<typeof createCommerceOffers>;
