import type { CurationResult, Offer, WardrobeCategory } from '@hs/contracts';
import type { WardrobeContext } from '../context.ts';
import { curateLooks, missingCategories, type Piece } from '../domain/curation.ts';
import type { StoredItem } from '../domain/items.ts';

/** How much of the wardrobe curation looks at; a household's wardrobe is far smaller. */
const MAX_WARDROBE_ITEMS = 1000;
const OFFERS_PER_GAP = 5;

export const itemPiece = (i: StoredItem): Piece => ({
  source: 'WARDROBE',
  id: i.itemId,
  category: i.category,
  colors: i.colors,
  season: i.season,
  occasion: i.occasion,
  label: i.brand || i.category.toLowerCase(),
});

const offerPiece = (o: Offer): Piece => ({
  source: 'OFFER',
  id: o.offerId,
  category: o.category,
  colors: o.colors,
  season: o.season,
  occasion: [],
  label: o.title,
  price: { amount: o.price, currency: o.currency },
});

export async function loadWardrobe(ctx: WardrobeContext, householdId: string): Promise<StoredItem[]> {
  const out: StoredItem[] = [];
  let cursor: string | null = null;
  do {
    const page = await ctx.items.list(householdId, {}, 200, cursor);
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && out.length < MAX_WARDROBE_ITEMS);
  return out;
}

/**
 * Steps: read the household's wardrobe; find the categories it lacks for this item; ask commerce
 * for active offers in those categories (optional: if commerce fails, curation goes on from the
 * wardrobe and says so); apply the pure curation rules.
 */
export async function curateItem(
  ctx: WardrobeContext,
  anchor: StoredItem,
  requestId: string,
): Promise<CurationResult> {
  const wardrobe = (await loadWardrobe(ctx, anchor.householdId)).map(itemPiece);
  const anchorPiece = itemPiece(anchor);
  const gaps = missingCategories(anchorPiece, wardrobe);
  let offers: Piece[] = [];
  let offersStatus: CurationResult['offers'] = gaps.length === 0 ? 'NONE_NEEDED' : 'NONE_FOUND';
  const notes: string[] = [];
  if (gaps.length > 0) {
    try {
      const found = await Promise.all(
        gaps.map((category: WardrobeCategory) =>
          ctx.offers.search(
            {
              householdId: anchor.householdId,
              category,
              ...(anchor.season.length === 1 ? { season: anchor.season[0] } : {}),
              limit: OFFERS_PER_GAP,
            },
            requestId,
          ),
        ),
      );
      offers = found.flat().map(offerPiece);
      if (offers.length > 0) offersStatus = 'INCLUDED';
    } catch {
      offersStatus = 'UNAVAILABLE';
      notes.push('Offers could not be loaded (commerce unavailable); looks use the wardrobe only');
    }
  }
  const curated = curateLooks(anchorPiece, wardrobe, offers);
  return {
    itemId: anchor.itemId,
    backend: 'local',
    looks: curated.looks,
    offers: offersStatus,
    notes: [...notes, ...curated.notes],
  };
}
