// Whether a mission exists in a household, asked of the orchestrator (which owns missions) with
// the member's identity: GET /api/v1/households/{id}/orchestrator/missions/{mId}/access. The
// orchestrator answers 404 for a mission that is missing or another household's before it checks
// who may read it (403), so both answers tell existence.
import {
  AppError,
  type Caller,
  createMissionLookup,
  notFound,
  type PeerClient,
  upstreamError,
} from '@hs/service-kit';

/** The orchestrator's refusal of our own internal token (a deployment fault, not the member's). */
const TOKEN_REFUSED = 'Missing or invalid internal token';

/** `readable`: the caller may follow the mission; `hidden`: it exists, but is another member's. */
export type MissionVisibility = 'readable' | 'hidden';

export interface MissionDirectory {
  /** The mission's visibility to the caller; 404 NOT_FOUND when it is not this household's. */
  visibility(
    householdId: string,
    missionId: string,
    caller: Caller,
    requestId: string,
  ): Promise<MissionVisibility>;
}

export function createMissionDirectory(orchestrator: PeerClient): MissionDirectory {
  const lookup = createMissionLookup(orchestrator);
  return {
    async visibility(householdId, missionId, caller, requestId) {
      try {
        const body = await lookup(householdId, missionId, caller, requestId);
        // A reply for another household or mission would be the orchestrator's bug: never trust it.
        if (body.household_id !== householdId || body.mission_id !== missionId)
          throw notFound('Mission not found');
        return 'readable';
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (err.status === 404) throw notFound('Mission not found');
        if (err.status === 403 && err.message === TOKEN_REFUSED)
          throw upstreamError('orchestrator refused the internal token of artifacts-audit', err);
        if (err.status === 403) return 'hidden';
        throw err;
      }
    },
  };
}
