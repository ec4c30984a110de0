// Wardrobe service: GET /api/v1/households/{id}/wardrobe/items (filters category, season).
import { ListWardrobeArgs, ListWardrobeResult } from '@hs/contracts';
import { householdPath, peerCall, type ToolDefinition } from './tool-context.ts';

const MAX_ITEMS = 50;

type RawItem = Record<string, unknown> & { itemId: string; category: string };

export const listWardrobe: ToolDefinition<typeof ListWardrobeArgs, typeof ListWardrobeResult> = {
  name: 'list_wardrobe',
  description:
    "Lists the household's wardrobe items, optionally filtered by category (TOP, BOTTOM, DRESS, OUTERWEAR, SHOES, ACCESSORY, BAG, OTHER) and season.",
  args: ListWardrobeArgs,
  result: ListWardrobeResult,
  async run(args, ctx) {
    const reply = await ctx.peers.wardrobe.call({
      method: 'GET',
      path: `${householdPath(ctx)}/wardrobe/items`,
      query: { category: args.category, season: args.season },
      ...peerCall(ctx),
    });
    const body = reply.body as { items?: RawItem[] } | RawItem[];
    const items = Array.isArray(body) ? body : (body.items ?? []);
    // Only what a stylist needs: keeps the model's context small and image URLs out of it.
    const summaries = items.slice(0, MAX_ITEMS).map((i) => ({
      itemId: i.itemId,
      category: i.category,
      brand: typeof i.brand === 'string' ? i.brand : undefined,
      colors: Array.isArray(i.colors) ? (i.colors as string[]) : undefined,
      season: Array.isArray(i.season) ? (i.season as string[]) : undefined,
      occasion: Array.isArray(i.occasion) ? (i.occasion as string[]) : undefined,
    }));
    return { items: summaries, count: items.length };
  },
};
