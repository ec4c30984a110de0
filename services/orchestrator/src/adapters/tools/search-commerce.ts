// Commerce service: internal POST /api/v1/search {householdId, query?, maxPrice?, ...} → {items, nextCursor}.
import { SearchCommerceArgs, SearchCommerceResult } from '@hs/contracts';
import { peerCall, type ToolDefinition } from './tool-context.ts';

type RawOffer = Record<string, unknown> & { offerId: string };
const pick = (o: RawOffer, key: string) => (o[key] === undefined || o[key] === null ? {} : { [key]: o[key] });

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
      ...peerCall(ctx),
    });
    const body = reply.body as { items?: RawOffer[]; nextCursor?: string | null };
    const items = (body.items ?? []).map((o) => ({
      offerId: o.offerId,
      ...pick(o, 'title'),
      ...pick(o, 'price'),
      ...pick(o, 'currency'),
      ...pick(o, 'url'),
      ...pick(o, 'category'),
      ...pick(o, 'colors'),
      ...pick(o, 'brand'),
      ...pick(o, 'sizes'),
      ...pick(o, 'season'),
    }));
    return { items, nextCursor: body.nextCursor ?? null };
  },
};
