import type { Season } from '@hs/contracts';
import { sizeKeys } from './size-keys.ts';

const ALL_SEASONS: readonly Season[] = ['SPRING', 'SUMMER', 'FALL', 'WINTER'];

/** Lowercased words (letters and digits, any script), deduplicated, in first-seen order. */
export function words(text: string | undefined): string[] {
  if (!text) return [];
  const found = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(found)].slice(0, 50);
}

/** "sneakers" → "sneaker", "dresses" → "dress", "hoodies" → "hoody": plural and singular meet. */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  if (word.endsWith('ie')) return `${word.slice(0, -2)}y`;
  return word;
}

/** Words and their stems, for matching a query word in either number. */
export const wordKeys = (text: string | undefined): string[] => [
  ...new Set(words(text).flatMap((w) => [w, stem(w)])),
];

/**
 * The normalized copies of an offer's fields that searches filter on, kept as array fields so
 * every backend can index them: title/brand words with their stems, seasons (empty means every season), sizes
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
    searchTokens: wordKeys(`${offer.title} ${offer.brand}`),
    searchSeasons: offer.season.length > 0 ? [...new Set(offer.season)] : [...ALL_SEASONS],
    sizeKeys: [...new Set(offer.sizes.flatMap(sizeKeys))],
    colorKeys: [...new Set(offer.colors.map((c) => c.trim().toLowerCase()))],
  };
}

export type SearchKeys = ReturnType<typeof searchKeys>;
