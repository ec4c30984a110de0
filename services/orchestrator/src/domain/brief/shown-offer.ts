import type { Message, OfferSummary, SearchCommerceResult } from '@hs/contracts';
import type { Reading } from './read-message.ts';

/** What a "what goes with…" message pairs with: a piece the household owns, or an offer shown. */
export type Paired = NonNullable<Reading['owned']> & {
  category?: string;
  colors?: string[];
  shown?: boolean;
};

export const ownedName = (p: Paired) => (p.shown ? `the ${p.text}` : `your ${p.text}`);

/**
 * The offer "it" means in "what goes with it": from the stylist's last reply, the offers of its
 * first search in the order the reply numbered them; `place` 0 is the first, -1 the last.
 * Undefined when the last reply showed none.
 */
export function shownOffer(history: readonly Message[], place: number): OfferSummary | undefined {
  const last = [...history].reverse().find((m) => m.role === 'model');
  const shown = (last?.tool_calls ?? [])
    .filter((c) => c.tool === 'search_commerce')
    .map((c) => (c.result as SearchCommerceResult | undefined)?.items ?? [])
    .find((items) => items.length > 0);
  return shown?.at(place);
}
