import type { Message } from '@hs/contracts';
import { type Reading, readMessage } from './read-message.ts';

/** How far back a brand asked for is still asked for: as far as item memory reads (item-memory.ts). */
const MESSAGES_READ = 10;

/**
 * The brand the shopper asked for ("nike trainers", "anything from zara"), which the search
 * carries as a query word: commerce matches query words in an offer's title and brand. The brief
 * (contracts) keeps only brands said no to, so this one is read again from the user's messages:
 * the latest to name a brand, until "start over", "any brand" or a "not from" of it. Two brands at
 * once ("nike or adidas") are no one query word: neither is searched by.
 */
export function preferredBrand(history: readonly Message[], current: Reading): string | undefined {
  const earlier = history
    .filter((m) => m.role === 'user')
    .slice(-MESSAGES_READ)
    .map((m) => readMessage(m.content));
  let brand: string | undefined;
  for (const r of [...earlier, current]) {
    if (r.clear.includes('all') || r.clear.includes('brands')) brand = undefined;
    if (r.brands.length > 0) brand = r.brands.length === 1 ? r.brands[0] : undefined;
    if (brand && r.excludedBrands.includes(brand)) brand = undefined;
  }
  return brand;
}
