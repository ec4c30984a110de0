import { UpdateBriefArgs, UpdateBriefResult } from '@hs/contracts';
import type { ToolDefinition } from './tool-context.ts';

/**
 * The model's memory of what the shopper wants. The agent loop applies it to the mission's brief
 * (domain/agent-loop.ts), so `run` is never reached through a peer.
 */
export const updateBrief: ToolDefinition<typeof UpdateBriefArgs, typeof UpdateBriefResult> = {
  name: 'update_brief',
  description:
    "Records what the shopper asked for, before searching: the fields given replace the current brief's (null removes one). itemKinds are everyday words (jeans, hoodie, sneakers); categories TOP, BOTTOM, DRESS, OUTERWEAR, SHOES, ACCESSORY, BAG, OTHER; excludedColors/excludedKinds/excludedBrands for what they do not want; seasons SPRING, SUMMER, FALL, WINTER; forAge for a child's age; relaxed names what a search had to loosen.",
  args: UpdateBriefArgs,
  result: UpdateBriefResult,
  run: async () => {
    throw new Error('update_brief is applied by the agent loop');
  },
};
