import type { ArtifactType } from '@hs/contracts';
import { notFound } from '@hs/service-kit';
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
