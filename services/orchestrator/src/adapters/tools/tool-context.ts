import { SCOPE_HEADERS, type ToolName } from '@hs/contracts';
import type { Caller } from '@hs/service-kit';
import type { z } from 'zod';
import type { OrchestratorPeers } from '../peers.ts';

/** Who the tool acts for: the mission owner's identity is forwarded to every peer. */
export type ToolContext = {
  householdId: string;
  missionId: string;
  caller: Caller;
  requestId: string;
  peers: OrchestratorPeers;
  /**
   * Browser sessions this mission has opened and knows of (its stored ones, plus those opened
   * earlier in this turn): names the next one, so a create whose answer was lost is found again.
   */
  browserSessionsOpened?: number;
};

export interface ToolDefinition<A extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  name: ToolName;
  description: string;
  args: A;
  result: R;
  run(args: z.infer<A>, ctx: ToolContext): Promise<z.infer<R>>;
}

export const householdPath = (ctx: ToolContext) =>
  `/api/v1/households/${encodeURIComponent(ctx.householdId)}`;

/** Every tool call names its household and mission, so a peer can refuse another family's resource by id. */
export const peerCall = (ctx: ToolContext) => ({
  requestId: ctx.requestId,
  caller: ctx.caller,
  headers: { [SCOPE_HEADERS.householdId]: ctx.householdId, [SCOPE_HEADERS.missionId]: ctx.missionId },
});
