// Which artifacts a member may read (a service's own call, with no caller, reads every one):
// - an AuditLog (a guardian's export of a mission's audit entries) is the audit log, which only a
//   PARENT_GUARDIAN reads (decisions, roles table);
// - any other artifact of a mission (its Transcript, plan, outcome, recording) tells what the
//   mission holds, so it is read by those who may follow the mission: its owner, or any member
//   for a POLL mission (decisions "Missions"), as the orchestrator answers for the mission itself.
import type { Artifact, ArtifactType } from '@hs/contracts';
import { type Caller, forbidden, isAppError } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { ArtifactsAuditContext } from '../context.ts';
import { callerFollowsMission, GUARDIAN_ONLY_AUDIT } from './access.ts';

export const NOT_A_FOLLOWER =
  "Only the mission's owner may read its artifacts (any member, for a POLL mission)";

const isGuardian = (caller: Caller) => caller.role === 'PARENT_GUARDIAN';

/** 403 FORBIDDEN unless the caller may read this artifact of the household (found already). */
export async function assertMayReadArtifact(
  ctx: ArtifactsAuditContext,
  request: FastifyRequest,
  artifact: Artifact,
): Promise<void> {
  const caller = request.caller;
  if (!caller) return;
  if (artifact.type === 'AuditLog') {
    if (!isGuardian(caller)) throw forbidden(GUARDIAN_ONLY_AUDIT);
    return;
  }
  if (!(await followsArtifactMission(ctx, request, caller, artifact))) throw forbidden(NOT_A_FOLLOWER);
}

/** A mission the orchestrator does not know (nor the ledger) is one nobody follows. */
async function followsArtifactMission(
  ctx: ArtifactsAuditContext,
  request: FastifyRequest,
  caller: Caller,
  artifact: Artifact,
): Promise<boolean> {
  try {
    return await callerFollowsMission(ctx, request, caller, artifact.householdId, artifact.missionId);
  } catch (err) {
    if (isAppError(err) && err.status === 404) return false;
    throw err;
  }
}

/**
 * The artifact types of a mission a caller sees in its list, given whether they follow the
 * mission (its 404s answered already): `all`, the types but AuditLog, only AuditLog (a guardian
 * who does not follow it finds their exports), or none: 403 FORBIDDEN, like the mission itself.
 */
export function listableTypes(
  caller: Caller | null,
  follows: boolean,
): 'all' | 'notAuditLog' | 'onlyAuditLog' {
  if (!caller) return 'all';
  if (follows) return isGuardian(caller) ? 'all' : 'notAuditLog';
  if (isGuardian(caller)) return 'onlyAuditLog';
  throw forbidden(NOT_A_FOLLOWER);
}

/** A mission's artifacts the caller may see, with the optional artifact_type filter. */
export async function listReadableArtifacts(
  ctx: ArtifactsAuditContext,
  scope: ReturnType<typeof listableTypes>,
  householdId: string,
  missionId: string,
  type: ArtifactType | undefined,
): Promise<Artifact[]> {
  if (scope === 'all') return ctx.artifacts.listForMission(householdId, missionId, type);
  if (scope === 'onlyAuditLog')
    return type && type !== 'AuditLog'
      ? []
      : ctx.artifacts.listForMission(householdId, missionId, 'AuditLog');
  if (type === 'AuditLog') return [];
  const list = await ctx.artifacts.listForMission(householdId, missionId, type);
  return list.filter((artifact) => artifact.type !== 'AuditLog');
}
