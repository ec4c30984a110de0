import type { Brief, SearchCommerceArgs } from '@hs/contracts';
import { baseKind, categoryOf, isGenericKind } from './read-message.ts';

/**
 * When nothing matches, the stylist loosens one constraint at a time, always in this order, and
 * says which: the price (the bound raised by half), then the colour, the season, the size, the
 * brand asked for (a preference, softer than what the item is), and last the exact item word
 * (any piece of the same category). Exclusions are never loosened: what the shopper said no to
 * stays out.
 */
export const RELAX_ORDER = ['price', 'color', 'season', 'size', 'brand', 'kind'] as const;
export type Relaxation = (typeof RELAX_ORDER)[number];

const SEARCH_LIMIT = 3;
const raised = (max: number) => Math.ceil((max * 1.5) / 5) * 5;

/** The relaxations that change anything for this brief, item kind and brand asked for, in order. */
export function applicable(brief: Brief, kind: string | undefined, brand?: string): Relaxation[] {
  return RELAX_ORDER.filter((r) => {
    if (r === 'brand') return brand !== undefined;
    if (r === 'price') return brief.maxPrice !== undefined || brief.minPrice !== undefined;
    if (r === 'color') return (brief.colors?.length ?? 0) > 0;
    if (r === 'season') return (brief.seasons?.length ?? 0) > 0;
    if (r === 'size') return (brief.sizes?.length ?? 0) > 0;
    return kind !== undefined && !isGenericKind(kind) && categoryOf(kind) !== undefined;
  });
}

/**
 * The search for one item kind in one size (the brief's first unless given: a search takes one
 * size, so each size of the brief is its own search) with the first `level` applicable
 * relaxations applied. A brand asked for goes in the query beside the item word ("nike
 * sneakers"): commerce matches query words in an offer's title and brand.
 */
export function searchFor(
  brief: Brief,
  kind: string | undefined,
  level: number,
  size: string | undefined = brief.sizes?.[0],
  brand?: string,
): SearchCommerceArgs {
  const relaxed = new Set(applicable(brief, kind, brand).slice(0, level));
  const args: SearchCommerceArgs = { limit: SEARCH_LIMIT };
  const category = kind ? categoryOf(kind) : brief.categories?.[0];
  // Maternity wear of a generic item ("a maternity top") is searched by "maternity" alone.
  const said = kind && isGenericKind(baseKind(kind)) && kind !== baseKind(kind) ? 'maternity' : kind;
  const words = [
    ...(brand && !relaxed.has('brand') ? [brand] : []),
    ...(said && !isGenericKind(said) && !relaxed.has('kind') ? [said] : []),
  ];
  if (words.length > 0) args.query = words.join(' ');
  if (category) args.category = category;
  if (relaxed.has('price')) {
    if (brief.maxPrice !== undefined) args.maxPrice = raised(brief.maxPrice);
  } else {
    if (brief.maxPrice !== undefined) args.maxPrice = brief.maxPrice;
    if (brief.minPrice !== undefined) args.minPrice = brief.minPrice;
    if (brief.currency) args.currency = brief.currency;
  }
  if (brief.colors?.length && !relaxed.has('color')) args.colors = brief.colors;
  if (brief.seasons?.[0] && !relaxed.has('season')) args.season = brief.seasons[0];
  if (size && !relaxed.has('size')) args.size = size;
  if (brief.excludedColors?.length) args.excludeColors = brief.excludedColors;
  if (brief.excludedBrands?.length) args.excludeBrands = brief.excludedBrands;
  if (brief.excludedKinds?.length) args.excludeWords = brief.excludedKinds;
  return args;
}

const money = (v: number, currency?: string) => `${v}${currency ? ` ${currency}` : ''}`;

function priceText(b: Brief): string {
  if (b.minPrice !== undefined && b.maxPrice !== undefined)
    return `between ${money(b.minPrice)} and ${money(b.maxPrice, b.currency)}`;
  if (b.maxPrice !== undefined) return `under ${money(b.maxPrice, b.currency)}`;
  return `from ${money(b.minPrice!, b.currency)}`;
}

/** "the price (under 25 instead of under 15)": what a relaxation loosened, in words (`sizes`: those searched). */
export function describeRelaxation(
  r: Relaxation,
  brief: Brief,
  kind: string | undefined,
  sizes: string[] = brief.sizes ?? [],
  brand?: string,
): string {
  switch (r) {
    case 'price':
      return brief.maxPrice !== undefined
        ? `the price (under ${raised(brief.maxPrice)} instead of ${priceText(brief)})`
        : `the price (any price instead of ${priceText(brief)})`;
    case 'color':
      return `the colour (any colour instead of ${brief.colors!.join(' or ')})`;
    case 'season':
      return `the season (any season instead of ${brief.seasons!.map((s) => s.toLowerCase()).join(' or ')})`;
    case 'size':
      return `the size (any size instead of ${sizes.join(' or ')})`;
    case 'brand':
      return `the brand (any brand instead of ${brand})`;
    case 'kind':
      return `the item (any ${categoryOf(kind!)!.toLowerCase()} instead of only ${kind})`;
  }
}
