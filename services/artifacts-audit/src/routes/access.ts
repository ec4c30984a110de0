import type { ArtifactType } from '@hs/contracts';
import { type Caller, forbidden, isAppError, notFound } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { MissionOpening } from '../adapters/audit-ledger.ts';
import type { ArtifactsAuditContext } from '../context.ts';

/**
 * Who writes which artifact (decisions "Artifacts and audit"). A member's call arrives from the
 * gateway with the caller's identity (`X-User-Id`); a service's own call carries the internal
 * token alone. The types written by a service refuse every member, a guardian included, so a
 * mission's history cannot be forged before its real author writes it.
 */
const SERVICE_WRITERS: Partial<Record<ArtifactType, string>> = {
  Transcript: 'the orchestrator',
  OutcomeSummary: 'the orchestrator',
  BrowserRecording: 'the browser bridge',
};

/**
 * Route config for an artifact only a service writes: no member role may (403 before the body is
 * read, by the kit's route-access hook); a service's own call carries no member and passes.
 */
export const writtenByService = (type: keyof typeof SERVICE_WRITERS) => ({
  roles: [] as const,
  rolesMessage: `${type} artifacts are written only by ${SERVICE_WRITERS[type]}`,
});

export const GUARDIAN_ONLY_AUDIT = 'Only a PARENT_GUARDIAN may read the audit log';

/** Route config: members other than a PARENT_GUARDIAN never read audit entries; services may. */
export const guardianOrService = (message: string) => ({
  roles: ['PARENT_GUARDIAN'] as const,
  rolesMessage: message,
});

const NOT_THE_CALLERS_MISSION =
  "A mission plan may be requested only for a mission the caller may read (its owner's, or a POLL mission)";

/**
 * Whether the member may follow the mission (decisions "Missions": its owner, or any member for
 * a POLL mission), as the orchestrator answers GET .../orchestrator/missions/{mId}/access. The ledger
 * answers first, without a call: the orchestrator records the owner and the type in the
 * mission's MISSION_CREATED entry. The orchestrator is asked only when the trail has none; it
 * answers 404 NOT_FOUND for a mission that is missing or another household's.
 */
export async function callerFollowsMission(
  ctx: ArtifactsAuditContext,
  request: FastifyRequest,
  caller: Caller,
  householdId: string,
  missionId: string,
): Promise<boolean> {
  const opening = await ctx.ledger.missionOpening(householdId, missionId);
  if (opening) return follows(opening, caller);
  return (await ctx.missions.visibility(householdId, missionId, caller, request.id)) === 'readable';
}

const follows = (opening: MissionOpening, caller: Caller) =>
  opening.ownerId === caller.userId || opening.missionType === 'POLL';

/**
 * What a guardian exports or reads about a mission (an AuditLog export, its artifacts and audit
 * trail) names a mission of this household: one that is missing or another household's is 404
 * NOT_FOUND, so nothing is stored or recorded for a mission that does not exist here. The ledger
 * answers for a mission with a trail (every running mission has one), without a call, so reading
 * a mission's trail does not need the orchestrator up; the orchestrator, which owns missions, for
 * the rest. A service's own call (no caller) is about a mission it runs: only a mission of another
 * household is refused.
 */
export async function assertMissionOfHousehold(
  ctx: ArtifactsAuditContext,
  request: FastifyRequest,
  householdId: string,
  missionId: string,
): Promise<void> {
  const whereabouts = await ctx.ledger.missionWhereabouts(householdId, missionId);
  if (whereabouts === 'elsewhere') throw notFound('Mission not found');
  if (!request.caller || whereabouts === 'here') return;
  await ctx.missions.visibility(householdId, missionId, request.caller, request.id);
}

/**
 * The 404s of assertMissionOfHousehold, then whether the caller may follow the mission (see
 * callerFollowsMission). A service's own call (no caller) follows every mission it may name.
 */
export async function followsMissionOfHousehold(
  ctx: ArtifactsAuditContext,
  request: FastifyRequest,
  householdId: string,
  missionId: string,
): Promise<boolean> {
  const caller = request.caller;
  // Its MISSION_CREATED here places the mission in this household and tells who follows it.
  const opening = caller ? await ctx.ledger.missionOpening(householdId, missionId) : null;
  if (caller && opening) return follows(opening, caller);
  const whereabouts = await ctx.ledger.missionWhereabouts(householdId, missionId);
  if (whereabouts === 'elsewhere') throw notFound('Mission not found');
  if (!caller) return true;
  // No opening entry here: one answer of the orchestrator tells existence (404) and following.
  return (await ctx.missions.visibility(householdId, missionId, caller, request.id)) === 'readable';
}

/**
 * Who may have a MissionPlan stored for a mission id. A plan is a pure function of its request
 * (decisions: "may be requested by members", deterministic), so a member may plan a mission that
 * does not exist yet; what is refused is another household's mission (404, as if missing) and
 * another member's mission the caller may not follow (403). A service's own call plans its own.
 * `ahead`: the mission does not exist (the plan counts against the household's plans ahead).
 */
export async function assertMayPlanMission(
  ctx: ArtifactsAuditContext,
  request: FastifyRequest,
  householdId: string,
  missionId: string,
): Promise<'known' | 'ahead'> {
  const whereabouts = await ctx.ledger.missionWhereabouts(householdId, missionId);
  if (whereabouts === 'elsewhere') throw notFound('Mission not found');
  const caller = request.caller;
  if (!caller) return 'known';
  const opening = whereabouts === 'here' ? await ctx.ledger.missionOpening(householdId, missionId) : null;
  if (opening) {
    if (!follows(opening, caller)) throw forbidden(NOT_THE_CALLERS_MISSION);
    return 'known';
  }
  let visibility: Awaited<ReturnType<typeof ctx.missions.visibility>>;
  try {
    visibility = await ctx.missions.visibility(householdId, missionId, caller, request.id);
  } catch (err) {
    // Missing here (and with no trail in any household): a mission still to come.
    if (isAppError(err) && err.status === 404) return 'ahead';
    throw err;
  }
  if (visibility === 'hidden') throw forbidden(NOT_THE_CALLERS_MISSION);
  return 'known';
}
