// Wardrobe service: GET /api/v1/households/{id}/wardrobe/items (filters category, season).
import { ItemPage, ListWardrobeArgs, ListWardrobeResult, WardrobeItem } from '@hs/contracts';
import { z } from 'zod';
import { householdPath, peerCall, type ToolDefinition } from './tool-context.ts';

const MAX_ITEMS = 50;

/**
 * What the tool reads of wardrobe's ItemPage, checked by the contract's own field schemas: the
 * id and category of each item, its descriptive fields when sent. Only what a stylist needs
 * passes on: keeps the model's context small and image URLs out of it.
 */
const WardrobeReply = ItemPage.pick({ items: true }).extend({
  items: z.array(
    WardrobeItem.pick({
      itemId: true,
      category: true,
      brand: true,
      colors: true,
      season: true,
      occasion: true,
    }).partial({ brand: true, colors: true, season: true, occasion: true }),
  ),
});

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
      schema: WardrobeReply,
      ...peerCall(ctx),
    });
    const { items } = reply.body;
    return { items: items.slice(0, MAX_ITEMS), count: items.length };
  },
};
