import { MissionAccessSnapshot } from '@hs/contracts';
import type { Caller } from './internal-auth.ts';
import type { PeerClient } from './peer-client.ts';

/** The largest mission the lookup reads (its history included). */
const MISSION_REPLY_BYTES = 64 * 1024 * 1024;

/**
 * Reads who owns a mission, its type and state from the orchestrator, as the caller: the
 * orchestrator's 404, its 403 for a mission the caller may not follow, or a peer failure comes
 * back as the same error. The gateway and artifacts-audit ask it.
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
      // The mission is read whole (its history grows with every turn): a long one must not lock
      // its owner out of chat and the stream, as the peer's usual 8 MiB bound would.
      maxReplyBytes: MISSION_REPLY_BYTES,
    });
    return reply.body;
  };
}

export type MissionLookup = ReturnType<typeof createMissionLookup>;
