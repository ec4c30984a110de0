import type { OfferStatus } from '@hs/contracts';
import { ABORT, type CollectionOptions, type Page, type Store } from '@hs/store';
import type { OfferSearchPlan } from '../domain/offer-search-plan.ts';
import type { StoredOffer } from '../domain/offers.ts';

const ARRAY_FIELDS = ['searchTokens', 'searchSeasons', 'sizeKeys', 'colorKeys'] as const;

/**
 * The indexes every search shape of offer-search-plan.ts needs: equality fields, at most one
 * array field, price last. sqlite builds expression indexes from them, and
 * `firestore.indexes.json` is generated from the same list (scripts/firestore-indexes.ts).
 */
function searchIndexes() {
  const heads = [
    ['householdId', 'status'],
    ['householdId', 'status', 'category'],
  ];
  const out: { fields: string[] }[] = [];
  for (const head of heads) {
    out.push({ fields: [...head, 'price'] });
    for (const array of ARRAY_FIELDS) out.push({ fields: [...head, array, 'price'] });
  }
  return out;
}

export const OFFER_COLLECTIONS: Record<string, CollectionOptions> = {
  offers: { indexes: searchIndexes(), arrayFields: [...ARRAY_FIELDS] },
};

/** Stops a residual-filtered search from walking a whole catalogue for one page. */
const MAX_SCANNED_PER_PAGE = 2000;

export function createOfferRepository(store: Store) {
  const offers = store.collection<StoredOffer>('offers', OFFER_COLLECTIONS.offers);
  return {
    /** The offer when it belongs to the household; another household's offer is "missing". */
    async get(householdId: string, offerId: string): Promise<StoredOffer | null> {
      const offer = await offers.get(offerId);
      return offer && offer.householdId === householdId ? offer : null;
    },
    create: (offer: StoredOffer) => offers.create(offer.offerId, offer),
    createMany: (list: readonly StoredOffer[]) => offers.createMany(list.map((o) => [o.offerId, o] as const)),
    async setStatus(
      householdId: string,
      offerId: string,
      status: OfferStatus,
      now: string,
    ): Promise<StoredOffer | null> {
      const result = await offers.update(offerId, (current) => {
        if (!current || current.householdId !== householdId) return ABORT;
        if (current.status === status) return ABORT;
        return { ...current, status, updatedAt: now };
      });
      return result.doc && result.doc.householdId === householdId ? result.doc : null;
    },
    async delete(householdId: string, offerId: string): Promise<boolean> {
      const offer = await offers.get(offerId);
      if (!offer || offer.householdId !== householdId) return false;
      return offers.delete(offerId);
    },
    /**
     * One page of a planned search. Without a residual filter it is one indexed query. With one,
     * it asks the store for exactly as many rows as are still missing, so every fetched row is
     * either returned or rejected and the store's cursor stays exact; a page may come back short
     * (with a cursor) after MAX_SCANNED_PER_PAGE rows.
     */
    async search(plan: OfferSearchPlan, limit: number, cursor: string | null): Promise<Page<StoredOffer>> {
      const query = { where: plan.where, orderBy: plan.orderBy };
      if (!plan.residual) return offers.query({ ...query, limit, cursor });
      const items: StoredOffer[] = [];
      let scanned = 0;
      let next = cursor;
      do {
        const page = await offers.query({ ...query, limit: limit - items.length, cursor: next });
        scanned += page.items.length;
        items.push(...page.items.filter(plan.residual));
        next = page.nextCursor;
      } while (next && items.length < limit && scanned < MAX_SCANNED_PER_PAGE);
      return { items, nextCursor: next };
    },
  };
}

export type OfferRepository = ReturnType<typeof createOfferRepository>;
