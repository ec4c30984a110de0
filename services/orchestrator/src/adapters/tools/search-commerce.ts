// Commerce service: internal POST /api/v1/search {householdId, query?, maxPrice?, ...} → OfferPage.
import { Offer, OfferPage, SearchCommerceArgs, SearchCommerceResult } from '@hs/contracts';
import { z } from 'zod';
import { peerCall, type ToolDefinition } from './tool-context.ts';

/**
 * What the tool reads of commerce's OfferPage, checked by the contract's own field schemas:
 * each offer's id, and the fields a stylist needs when sent (nothing else reaches the model).
 */
const SENT_FIELDS = {
  title: true,
  price: true,
  currency: true,
  url: true,
  category: true,
  colors: true,
  brand: true,
  sizes: true,
  season: true,
} as const;
const CommerceReply = OfferPage.extend({
  items: z.array(Offer.pick({ offerId: true, ...SENT_FIELDS }).partial(SENT_FIELDS)),
});

export const searchCommerce: ToolDefinition<typeof SearchCommerceArgs, typeof SearchCommerceResult> = {
  name: 'search_commerce',
  description:
    "Searches the household's commerce offers with constraints: query (item words, e.g. 'hoodie'), price range and currency, season, category, colors (any of), size (any spelling), and exclusions: excludeColors, excludeBrands, excludeWords (item words such as 'heels').",
  args: SearchCommerceArgs,
  result: SearchCommerceResult,
  async run(args, ctx) {
    const reply = await ctx.peers.commerce.call({
      method: 'POST',
      path: '/api/v1/search',
      body: { householdId: ctx.householdId, ...args },
      schema: CommerceReply,
      ...peerCall(ctx),
    });
    return { items: reply.body.items, nextCursor: reply.body.nextCursor };
  },
};
