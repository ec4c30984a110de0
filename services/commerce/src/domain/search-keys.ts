import type { Season } from '@hs/contracts';

const ALL_SEASONS: readonly Season[] = ['SPRING', 'SUMMER', 'FALL', 'WINTER'];

/** Lowercased words (letters and digits, any script), deduplicated, in first-seen order. */
export function words(text: string | undefined): string[] {
  if (!text) return [];
  const found = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(found)].slice(0, 50);
}

/**
 * The normalized copies of an offer's fields that searches filter on, kept as array fields so
 * every backend can index them: title/brand words, seasons (empty means every season), sizes
 * uppercased, colours lowercased.
 */
export function searchKeys(offer: {
  title: string;
  brand: string;
  season: readonly Season[];
  sizes: readonly string[];
  colors: readonly string[];
}) {
  return {
    searchTokens: words(`${offer.title} ${offer.brand}`),
    searchSeasons: offer.season.length > 0 ? [...new Set(offer.season)] : [...ALL_SEASONS],
    sizeKeys: [...new Set(offer.sizes.map((s) => s.trim().toUpperCase()))],
    colorKeys: [...new Set(offer.colors.map((c) => c.trim().toLowerCase()))],
  };
}

export type SearchKeys = ReturnType<typeof searchKeys>;
