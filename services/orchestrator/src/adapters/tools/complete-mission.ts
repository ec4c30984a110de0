import { CompleteMissionArgs, CompleteMissionResult } from '@hs/contracts';
import type { ToolDefinition } from './tool-context.ts';

/** Internal: the agent concludes the mission; the turn ends it DONE after the reply is stored. */
export const completeMission: ToolDefinition<typeof CompleteMissionArgs, typeof CompleteMissionResult> = {
  name: 'complete_mission',
  description: 'Concludes the mission when the user is satisfied or says they are done.',
  args: CompleteMissionArgs,
  result: CompleteMissionResult,
  run: async () => ({ state: 'DONE' as const }),
};
