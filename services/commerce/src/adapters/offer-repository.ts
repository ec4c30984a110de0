import type { OfferStatus } from '@hs/contracts';
import {
  ABORT,
  type CollectionOptions,
  createSlotCounter,
  cursorAt,
  type IndexSpec,
  type Page,
  type Store,
} from '@hs/store';
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
  const out: IndexSpec[] = [];
  for (const head of heads) {
    out.push({ fields: [...head, 'price'] });
    for (const array of ARRAY_FIELDS) out.push({ fields: [...head, array, 'price'] });
    // The stylist's usual ask (a kind in a colour for a season): one list (in memory) or one walk
    // table range (sqlite) holds just those offers in price order, so a search at 100k offers
    // walks about a hundred of them for a page. Firestore cannot declare it (one array filter
    // per query).
    out.push({ fields: [...head, 'colorKeys', 'searchSeasons', 'price'], embeddedOnly: true });
    // A kind in a colour for a season with an item word, in memory only: there a walk of the
    // list above tests the word on each offer it passes (about 110 for a page at 100k offers, a
    // cache miss each), while this list holds just the matches. An offer is listed once per
    // (colour, season, word): about 10 entries for a usual one, and one over 256 (up to 8,000:
    // fifty words with their plurals, twenty colours, every season) is left out, its household's
    // searches walking the list above meanwhile (memory-index.ts). sqlite tests the word on the walk row itself
    // and does not build it: a table row per combination made bulk inserts 1.8-2.2x slower to take
    // 0.1 ms off a 0.6 ms search at 100k offers.
    if (head.includes('category'))
      out.push({
        fields: [...head, 'colorKeys', 'searchSeasons', 'searchTokens', 'price'],
        memoryOnly: true,
      });
  }
  return out;
}

export const OFFER_COLLECTIONS: Record<string, CollectionOptions> = {
  offers: { indexes: searchIndexes(), arrayFields: [...ARRAY_FIELDS] },
};

/** Stops a residual-filtered search from walking a whole catalogue for one page. */
const MAX_SCANNED_PER_PAGE = 2000;
/** A residual-filtered search reads this many times the rows it still needs, at least MIN_BATCH. */
const BATCH_FACTOR = 4;
const MIN_BATCH = 50;

/** What a household may hold unless configured otherwise (COMMERCE_MAX_OFFERS_PER_HOUSEHOLD). */
export const DEFAULT_MAX_OFFERS_PER_HOUSEHOLD = 200_000;

/** Offers, with the household's offer count: creates take their slots atomically (`maxOffers`). */
export function createOfferRepository(store: Store, maxOffers = DEFAULT_MAX_OFFERS_PER_HOUSEHOLD) {
  const offers = store.collection<StoredOffer>('offers', OFFER_COLLECTIONS.offers);
  const held = createSlotCounter(store, 'offer_counts', 'offers');
  const existing = (householdId: string) => () => offers.count([['householdId', '==', householdId]]);
  return {
    maxOffers,
    /** Whether one query may carry several array filters (Firestore allows one). */
    manyArrayFilters: store.backend !== 'docstore',
    /** The offer when it belongs to the household; another household's offer is "missing". */
    async get(householdId: string, offerId: string): Promise<StoredOffer | null> {
      const offer = await offers.get(offerId);
      return offer && offer.householdId === householdId ? offer : null;
    },
    /** The household's offers among `ids` (another household's are left out). */
    async getMany(householdId: string, ids: readonly string[]): Promise<Map<string, StoredOffer>> {
      const found = await offers.getMany(ids);
      for (const [id, offer] of found) if (offer.householdId !== householdId) found.delete(id);
      return found;
    },
    /** False (nothing created) when the household holds `maxOffers` already. */
    create: (offer: StoredOffer): Promise<boolean> =>
      held.createWithin(offer.householdId, maxOffers, existing(offer.householdId), () =>
        offers.create(offer.offerId, offer),
      ),
    /** All or none, for one household's offers: false (none created) when they would pass `maxOffers`. */
    createMany: (householdId: string, list: readonly StoredOffer[]): Promise<boolean> =>
      held.createWithin(
        householdId,
        maxOffers,
        existing(householdId),
        () => offers.createMany(list.map((o) => [o.offerId, o] as const)),
        list.length,
      ),
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
      const deleted = await offers.delete(offerId);
      if (deleted) await held.give(householdId, 1);
      return deleted;
    },
    /**
     * One page of a planned search. Without a residual filter it is one indexed query. With one,
     * it reads batches sized for the filter (a few times what is still missing), keeps the rows
     * that pass, and when a batch holds more than the page needs, ends the page at the last row
     * kept with a cursor right after it; a page may come back short (with a cursor) after
     * MAX_SCANNED_PER_PAGE rows.
     */
    async search(plan: OfferSearchPlan, limit: number, cursor: string | null): Promise<Page<StoredOffer>> {
      const query = { where: plan.where, orderBy: plan.orderBy };
      if (!plan.residual) return offers.query({ ...query, limit, cursor });
      const items: StoredOffer[] = [];
      let scanned = 0;
      let next = cursor;
      do {
        const missing = limit - items.length;
        const batch = Math.min(Math.max(missing * BATCH_FACTOR, MIN_BATCH), MAX_SCANNED_PER_PAGE - scanned);
        const page = await offers.query({ ...query, limit: batch, cursor: next });
        scanned += page.items.length;
        next = page.nextCursor;
        for (const offer of page.items) {
          if (!plan.residual(offer)) continue;
          items.push(offer);
          if (items.length === limit) {
            // Rows after this one in the batch were read but not handed out: resume right here.
            const last = page.items.at(-1)!;
            if (offer !== last) next = cursorAt(query, offer, offer.offerId);
            return { items, nextCursor: next };
          }
        }
      } while (next && scanned < MAX_SCANNED_PER_PAGE);
      return { items, nextCursor: next };
    },
  };
}

export type OfferRepository = ReturnType<typeof createOfferRepository>;
