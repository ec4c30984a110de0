import type { OfferPage, OfferSearchConstraints, OfferStatus } from '@hs/contracts';
import { badRequest } from '@hs/service-kit';
import { StoreQueryError } from '@hs/store';
import { planOfferSearch } from '../domain/offer-search-plan.ts';
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
  try {
    const plan = planOfferSearch(householdId, status, rest, {
      manyArrayFilters: ctx.offers.manyArrayFilters,
    });
    return await ctx.offers.search(plan, limit, cursor ?? null);
  } catch (err) {
    if (err instanceof StoreQueryError) throw badRequest('Invalid cursor');
    throw err;
  }
}
