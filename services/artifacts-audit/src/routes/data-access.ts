import type { AuditAction } from '@hs/contracts';
import type { FastifyRequest } from 'fastify';
import type { ArtifactsAuditContext } from '../context.ts';

type Access = {
  action: AuditAction;
  missionId?: string | null;
  targetType: string;
  targetId: string | null;
  detail?: Record<string, unknown>;
  /** The writer's id for the entry: the same id again records nothing more (the ledger dedupes on it). */
  eventId?: string;
};

/**
 * A DATA_ACCESS entry in the household's own chain for a read of audit entries or artifacts:
 * by a member (forwarded by the gateway), or through a signed link (no actor). Reads by the
 * services themselves are plumbing and are not recorded.
 */
export async function recordDataAccess(
  ctx: ArtifactsAuditContext,
  request: FastifyRequest,
  householdId: string,
  access: Access,
  viaSignedLink = false,
): Promise<void> {
  if (!request.caller && !viaSignedLink) return;
  await ctx.ledger.append(householdId, {
    ...(access.eventId ? { eventId: access.eventId } : {}),
    missionId: access.missionId ?? null,
    category: 'DATA_ACCESS',
    severity: 'INFO',
    action: access.action,
    detail: { ...access.detail, ...(viaSignedLink ? { via: 'signed-link' } : {}) },
    sourceService: 'artifacts-audit',
    actorId: request.caller?.userId ?? null,
    targetType: access.targetType,
    targetId: access.targetId,
  });
}
