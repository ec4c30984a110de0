import { MissionAccessSnapshot } from '@hs/contracts';
import { isUnknownRoute } from './error-handler.ts';
import { notFound, upstreamError } from './errors.ts';
import type { Caller } from './internal-auth.ts';
import type { PeerClient } from './peer-client.ts';

/** The largest mission the fallback reads whole (its history included). */
const WHOLE_MISSION_REPLY_BYTES = 64 * 1024 * 1024;
const MISSION_NOT_FOUND = 'Mission not found';

/**
 * Reads who owns a mission, its type and state from the orchestrator, as the caller: the
 * orchestrator's 404, its 403 for a mission the caller may not follow, or a peer failure comes
 * back as the same error. The gateway asks it for a stream token, a voice session or socket, and
 * before refusing a chat turn or client event over its rate limit; artifacts-audit for a mission's
 * artifacts and audit trail. The mission's `/access` read answers those fields alone, where the
 * mission itself carries its whole history.
 */
export function createMissionLookup(orchestrator: PeerClient) {
  return async (
    householdId: string,
    missionId: string,
    caller: Caller,
    requestId: string,
  ): Promise<MissionAccessSnapshot> => {
    // A "." or ".." id would be a path segment the URL folds away (another route asked).
    if (missionId === '.' || missionId === '..') throw notFound(MISSION_NOT_FOUND);
    const path = `/api/v1/households/${encodeURIComponent(householdId)}/orchestrator/missions/${encodeURIComponent(missionId)}`;
    const read = { method: 'GET' as const, caller, requestId, schema: MissionAccessSnapshot };
    let mission: MissionAccessSnapshot | null = null;
    try {
      mission = (await orchestrator.call({ ...read, path: `${path}/access` })).body;
    } catch (err) {
      if (!isUnknownRoute(err)) throw err;
    }
    // An orchestrator without the route (a rolling deploy): the mission read whole, so a long one
    // must not lock its owner out of chat and the stream as the peer's usual 8 MiB bound would.
    mission ??= (await orchestrator.call({ ...read, path, maxReplyBytes: WHOLE_MISSION_REPLY_BYTES })).body;
    if (mission.mission_id !== missionId || mission.household_id !== householdId)
      throw upstreamError('orchestrator answered for another mission than the one asked');
    return mission;
  };
}

export type MissionLookup = ReturnType<typeof createMissionLookup>;
