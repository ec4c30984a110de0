import type { OfferSearchConstraints, OfferStatus } from '@hs/contracts';
import type { OrderBy, Where } from '@hs/store';
import { type SearchKeys, stem, wordKeys, words } from './search-keys.ts';
import { sizeQuery } from './size-keys.ts';

type Searchable = SearchKeys & { currency: string; brand: string };

export interface OfferSearchPlan {
  where: Where[];
  orderBy: OrderBy[];
  /** Constraints the store query could not carry; checked on each fetched offer. */
  residual: ((offer: Searchable) => boolean) | null;
}

/**
 * Turns search constraints into one store query the indexes declared in offer-repository.ts
 * serve: equality on householdId, status (and category), a price range, ordered by price, and
 * the array filters: all of them where the store takes several (sqlite probes each through its
 * side table, the memory store checks them on the index walk), else only the most selective
 * (Firestore allows one array-contains per query: the first query word, else the season, the
 * size, the colours). The rest is a residual filter over the rows the query returns.
 */
export function planOfferSearch(
  householdId: string,
  status: OfferStatus,
  c: Omit<OfferSearchConstraints, 'limit' | 'cursor'>,
  /** The store takes several array filters in one query (sqlite, in memory; Firestore takes one). */
  options: { manyArrayFilters?: boolean } = {},
): OfferSearchPlan {
  const where: Where[] = [
    ['householdId', '==', householdId],
    ['status', '==', status],
  ];
  if (c.category) where.push(['category', '==', c.category]);
  if (c.minPrice !== undefined) where.push(['price', '>=', c.minPrice]);
  if (c.maxPrice !== undefined) where.push(['price', '<=', c.maxPrice]);

  const queryWords = words(c.query).map(stem);
  const size = c.size ? sizeQuery(c.size) : null;
  const checks: ((o: Searchable) => boolean)[] = [];
  // `exact`: the store filter selects exactly what the check does (a size key also finds other
  // systems' sizes of that number, so the size check always runs).
  const candidates: { filter: Where; check: (o: Searchable) => boolean; exact: boolean }[] = [];
  for (const w of queryWords)
    candidates.push({
      filter: ['searchTokens', 'array-contains', w],
      check: (o) => o.searchTokens.includes(w),
      exact: true,
    });
  if (c.season) {
    const season = c.season;
    candidates.push({
      filter: ['searchSeasons', 'array-contains', season],
      check: (o) => o.searchSeasons.includes(season),
      exact: true,
    });
  }
  if (size)
    candidates.push({
      filter: ['sizeKeys', 'array-contains', size.key],
      check: (o) => size.matches(o.sizeKeys),
      exact: false,
    });
  if (c.colors && c.colors.length > 0) {
    const colors = c.colors.slice(0, 10);
    candidates.push({
      filter: ['colorKeys', 'array-contains-any', colors],
      check: (o) => o.colorKeys.some((k) => colors.includes(k)),
      exact: true,
    });
  }
  const inStore = options.manyArrayFilters ? candidates : candidates.slice(0, 1);
  for (const candidate of candidates) {
    if (inStore.includes(candidate)) where.push(candidate.filter);
    if (!inStore.includes(candidate) || !candidate.exact) checks.push(candidate.check);
  }
  // Exclusions are never the store's filter (it has no "not contains"): residual checks.
  if (c.excludeColors) {
    const out = c.excludeColors;
    checks.push((o) => !o.colorKeys.some((k) => out.includes(k)));
  }
  if (c.excludeBrands) {
    const out = c.excludeBrands.map((b) => b.toLowerCase());
    checks.push((o) => !out.includes(o.brand.trim().toLowerCase()));
  }
  if (c.excludeWords) {
    const out = c.excludeWords.flatMap((w) => wordKeys(w));
    checks.push((o) => !o.searchTokens.some((t) => out.includes(t)));
  }
  if (c.currency) {
    const currency = c.currency;
    checks.push((o) => o.currency === currency);
  }
  return {
    where,
    orderBy: [{ field: 'price', direction: 'asc' }],
    residual: checks.length > 0 ? (o) => checks.every((check) => check(o)) : null,
  };
}
