import { MissionAccessSnapshot } from '@hs/contracts';
import type { Caller, PeerClient } from '@hs/service-kit';

/**
 * Reads who owns a mission, its type and state from the orchestrator, as the caller: the
 * orchestrator's 404 (or a peer failure) comes back as the same error.
 */
export function createMissionLookup(orchestrator: PeerClient) {
  return async (
    householdId: string,
    missionId: string,
    caller: Caller,
    requestId: string,
  ): Promise<MissionAccessSnapshot> => {
    const path = `/api/v1/households/${encodeURIComponent(householdId)}/orchestrator/missions/${encodeURIComponent(missionId)}`;
    const reply = await orchestrator.call({
      method: 'GET',
      path,
      caller,
      requestId,
      schema: MissionAccessSnapshot,
    });
    return reply.body;
  };
}

export type MissionLookup = ReturnType<typeof createMissionLookup>;
