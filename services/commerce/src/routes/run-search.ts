import type { OfferPage, OfferSearchConstraints, OfferStatus } from '@hs/contracts';
import { badRequest } from '@hs/service-kit';
import { StoreQueryError } from '@hs/store';
import { planOfferSearch } from '../domain/offer-search-plan.ts';
import { filtersDigest, storeCursorOf, withDigest } from '../domain/search-cursor.ts';
import type { CommerceContext } from './context.ts';

/** Shared by `GET /offers` and the internal search; a cursor the store can't use is the client's 400. */
export async function runSearch(
  ctx: CommerceContext,
  householdId: string,
  status: OfferStatus,
  constraints: OfferSearchConstraints,
): Promise<OfferPage> {
  const { limit, cursor, ...rest } = constraints;
  if (rest.minPrice !== undefined && rest.maxPrice !== undefined && rest.minPrice > rest.maxPrice)
    return { items: [], nextCursor: null };
  const digest = filtersDigest(status, rest);
  const from = cursor ? storeCursorOf(cursor, digest) : null;
  if (cursor && from === null)
    throw badRequest('This cursor belongs to other filters: start again without it when a filter changes');
  try {
    const plan = planOfferSearch(householdId, status, rest, {
      manyArrayFilters: ctx.offers.manyArrayFilters,
    });
    const page = await ctx.offers.search(plan, limit, from);
    return { items: page.items, nextCursor: withDigest(digest, page.nextCursor) };
  } catch (err) {
    if (err instanceof StoreQueryError) throw badRequest('Invalid cursor');
    throw err;
  }
}
