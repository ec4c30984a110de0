import { MissionAccessSnapshot } from '@hs/contracts';
import { isUnknownRoute } from './error-handler.ts';
import type { Caller } from './internal-auth.ts';
import type { PeerClient } from './peer-client.ts';

/** The largest mission the fallback reads whole (its history included). */
const WHOLE_MISSION_REPLY_BYTES = 64 * 1024 * 1024;

/**
 * Reads who owns a mission, its type and state from the orchestrator, as the caller: the
 * orchestrator's 404, its 403 for a mission the caller may not follow, or a peer failure comes
 * back as the same error. The gateway asks it before every chat turn, client event, stream and
 * voice session, and artifacts-audit before a mission's artifacts: the mission's `/access` read
 * answers those fields alone, where the mission itself carries its whole history.
 */
export function createMissionLookup(orchestrator: PeerClient) {
  return async (
    householdId: string,
    missionId: string,
    caller: Caller,
    requestId: string,
  ): Promise<MissionAccessSnapshot> => {
    const path = `/api/v1/households/${encodeURIComponent(householdId)}/orchestrator/missions/${encodeURIComponent(missionId)}`;
    const read = { method: 'GET' as const, caller, requestId, schema: MissionAccessSnapshot };
    try {
      return (await orchestrator.call({ ...read, path: `${path}/access` })).body;
    } catch (err) {
      if (!isUnknownRoute(err)) throw err;
    }
    // An orchestrator without the route (a rolling deploy): the mission read whole, so a long one
    // must not lock its owner out of chat and the stream as the peer's usual 8 MiB bound would.
    return (await orchestrator.call({ ...read, path, maxReplyBytes: WHOLE_MISSION_REPLY_BYTES })).body;
  };
}

export type MissionLookup = ReturnType<typeof createMissionLookup>;
