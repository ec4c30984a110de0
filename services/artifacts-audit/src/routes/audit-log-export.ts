import { Artifact, ArtifactMissionParams } from '@hs/contracts';
import { errorResponses, type ServiceApp } from '@hs/service-kit';
import type { ArtifactsAuditContext } from '../context.ts';
import { assertMissionNotForeign, guardianOrService } from './access.ts';
import { recordDataAccess } from './data-access.ts';

/**
 * An AuditLog artifact: a snapshot of a mission's audit entries as they stand, with the chain
 * fields kept so the export can be checked against the ledger later. Exports are not unique;
 * each call stores a new one.
 */
export function registerAuditLogExportRoutes(app: ServiceApp, ctx: ArtifactsAuditContext): void {
  app.post(
    '/api/v1/households/:id/missions/:mId/artifacts/audit-log',
    {
      schema: {
        tags: ['artifacts'],
        security: [{ internalToken: [] }],
        description:
          "Exports the mission's audit entries (oldest first) as an AuditLog artifact. PARENT_GUARDIAN only (403 for other members); another household's mission is 404 NOT_FOUND. No body.",
        params: ArtifactMissionParams,
        response: { 201: Artifact, ...errorResponses(403, 404, 422, 502) },
      },
      config: guardianOrService('Only a PARENT_GUARDIAN may export the audit log'),
    },
    async (request, reply) => {
      const { id, mId } = request.params;
      await assertMissionNotForeign(ctx, id, mId);
      const entries = await ctx.ledger.missionEntries(id, mId);
      const { artifact } = await ctx.artifacts.create({
        householdId: id,
        missionId: mId,
        type: 'AuditLog',
        data: {
          missionId: mId,
          entryCount: entries.length,
          lastSeq: entries.at(-1)?.seq ?? null,
          entries,
        },
      });
      await recordDataAccess(ctx, request, id, {
        action: 'AUDIT_LOG_EXPORTED',
        missionId: mId,
        targetType: 'artifact',
        targetId: artifact.artifactId,
        detail: { entryCount: entries.length },
      });
      return reply.code(201).send(artifact);
    },
  );
}
