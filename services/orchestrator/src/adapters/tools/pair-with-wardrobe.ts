// Wardrobe service: POST /api/v1/households/{id}/wardrobe/pairings {category, colors, season?}.
// The colour-harmony and completing-category rules live there; the stylist only asks.
import { PairWithWardrobeArgs, PairWithWardrobeResult } from '@hs/contracts';
import { householdPath, peerCall, type ToolDefinition } from './tool-context.ts';

export const pairWithWardrobe: ToolDefinition<typeof PairWithWardrobeArgs, typeof PairWithWardrobeResult> = {
  name: 'pair_with_wardrobe',
  description:
    'Finds what the household already owns that goes with a piece (category and colours of an offer, or of an item the user named): the categories that complete it and owned items that match, each with why.',
  args: PairWithWardrobeArgs,
  result: PairWithWardrobeResult,
  async run(args, ctx) {
    const reply = await ctx.peers.wardrobe.call({
      method: 'POST',
      path: `${householdPath(ctx)}/wardrobe/pairings`,
      body: args,
      schema: PairWithWardrobeResult,
      ...peerCall(ctx),
    });
    return reply.body;
  },
};
