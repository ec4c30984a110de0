// A stand-in for commerce's internal search on loopback port 0 (the gateway's membership route
// comes from @hs/testing): enough protocol for the wardrobe's two peer calls.
import { startFakePeer } from '@hs/testing';

/** Answers the internal search with the offers of the requested category. */
export function fakeCommerce(offers: Record<string, unknown>[]) {
  return startFakePeer(({ body }) => {
    const { category, householdId } = body as { category?: string; householdId: string };
    const items = offers.filter(
      (o) => o.householdId === householdId && (!category || o.category === category),
    );
    return { status: 200, body: { items, nextCursor: null } };
  });
}

export const offerFixture = (over: Record<string, unknown>) => ({
  offerId: 'off_1',
  householdId: 'h_1',
  title: 'Canvas sneakers',
  brand: 'Acme',
  url: 'https://shop.acme.com/p/1',
  merchantDomain: 'shop.acme.com',
  price: 55,
  currency: 'EUR',
  category: 'SHOES',
  colors: ['white'],
  season: ['SUMMER'],
  sizes: ['42'],
  imageUrl: null,
  status: 'ACTIVE',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...over,
});
