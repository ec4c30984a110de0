import type { ArtifactType } from '@hs/contracts';
import { forbidden, notFound } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
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

/** Route hook (runs before the body is read): 403 for a member writing a service's artifact. */
export const writtenByService = (type: keyof typeof SERVICE_WRITERS) => async (request: FastifyRequest) => {
  if (request.caller) throw forbidden(`${type} artifacts are written only by ${SERVICE_WRITERS[type]}`);
};

export const GUARDIAN_ONLY_AUDIT = 'Only a PARENT_GUARDIAN may read the audit log';

/** Route hook: members other than a PARENT_GUARDIAN never read audit entries; services may. */
export const guardianOrService = (message: string) => async (request: FastifyRequest) => {
  if (request.caller && request.caller.role !== 'PARENT_GUARDIAN') throw forbidden(message);
};

/**
 * Mission ids are global, so a mission whose audit trail sits in another household is that
 * household's: 404, like every other foreign resource, never an empty page. The ledger decides
 * (only services write it); artifacts would not, since members may request a MissionPlan for
 * any mission id.
 */
export async function assertMissionNotForeign(
  ctx: ArtifactsAuditContext,
  householdId: string,
  missionId: string,
): Promise<void> {
  if (await ctx.ledger.missionElsewhere(householdId, missionId)) throw notFound('Mission not found');
}
