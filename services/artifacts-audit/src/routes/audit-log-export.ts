import { Artifact, ArtifactMissionParams } from '@hs/contracts';
import {
  checkBeforeBody,
  errorResponses,
  remainingBudgetMs,
  type ServiceApp,
  serviceUnavailable,
} from '@hs/service-kit';
import type { ArtifactsAuditContext } from '../context.ts';
import { assertMissionOfHousehold, guardianOrService } from './access.ts';
import { recordDataAccess } from './data-access.ts';

/** Entries one export holds at most, oldest first; the rest are read page by page by seq. */
export const EXPORT_MAX_ENTRIES = 10_000;
/** Characters of entry JSON one export holds at most (entries carry free-form detail). */
export const EXPORT_MAX_CHARS = 8 * 1024 * 1024;

/** What an export's store record keeps (the list shows it); the blob adds `entries`. */
type ExportSummary = {
  missionId: string;
  entryCount: number;
  lastSeq: number | null;
  truncated: boolean;
  rest?: string;
};

/** Gives up before reading on when the caller has stopped waiting: nothing is stored for nobody. */
const withinDeadline = () => {
  const left = remainingBudgetMs();
  if (left !== undefined && left <= 0)
    throw serviceUnavailable('The export did not finish before the caller gave up; nothing was stored');
};

/**
 * An AuditLog artifact: a snapshot of a mission's oldest audit entries (bounded), with the chain
 * fields kept so the export can be checked against the ledger later. A new export is stored only
 * when the trail has something the last one lacks (entries other than the DATA_ACCESS records of
 * its own reads); otherwise the last one is answered again. The store keeps a summary, the blob
 * the entries.
 */
export function registerAuditLogExportRoutes(app: ServiceApp, ctx: ArtifactsAuditContext): void {
  /**
   * The mission is this household's (404), answered before the body is read (decisions,
   * Conventions), after the kit's PARENT_GUARDIAN check (403); the handler relies on it.
   */
  const missionOfHousehold = checkBeforeBody<{ id: string; mId: string }, true>({
    find: async (p, request) => {
      await assertMissionOfHousehold(ctx, request, p.id, p.mId);
      return true;
    },
    missing: 'Mission not found',
  });
  app.post(
    '/api/v1/households/:id/missions/:mId/artifacts/audit-log',
    {
      schema: {
        tags: ['artifacts'],
        security: [{ internalToken: [] }],
        description: `Exports the mission's audit entries (oldest first, at most ${EXPORT_MAX_ENTRIES} entries or ${EXPORT_MAX_CHARS / 1024 / 1024} MB of JSON) as an AuditLog artifact: data {missionId, entryCount, lastSeq, truncated, entries, rest?}; when truncated, rest names the paged trail read that continues after lastSeq (GET .../missions/{mId}/audit?afterSeq=lastSeq). 201 with a new export; 200 with the last export when the trail has nothing new since (DATA_ACCESS records aside) or the last export was already truncated. PARENT_GUARDIAN only (403 for other members); a mission that does not exist or is another household's is 404 NOT_FOUND (nothing stored); 503 SERVICE_UNAVAILABLE when the caller's deadline passed first (nothing stored). No body.`,
        params: ArtifactMissionParams,
        response: { 200: Artifact, 201: Artifact, ...errorResponses(403, 404, 422, 502, 503) },
      },
      config: guardianOrService('Only a PARENT_GUARDIAN may export the audit log'),
      onRequest: missionOfHousehold,
    },
    async (request, reply) => {
      const { id, mId } = request.params;
      // The mission was found to be this household's before the body was read (onRequest).
      const reused = await unchangedExport(ctx, id, mId);
      const artifact = reused ?? (await newExport(ctx, id, mId));
      await recordDataAccess(ctx, request, id, {
        action: 'AUDIT_LOG_EXPORTED',
        missionId: mId,
        targetType: 'artifact',
        targetId: artifact.artifactId,
        detail: {
          entryCount: (artifact.data as ExportSummary).entryCount,
          ...(reused ? { reused: true } : {}),
        },
      });
      return reply.code(reused ? 200 : 201).send(artifact);
    },
  );
}

/** The last export whole, when a new one would hold nothing more. */
async function unchangedExport(ctx: ArtifactsAuditContext, householdId: string, missionId: string) {
  const last = await ctx.artifacts.latest(householdId, missionId, 'AuditLog');
  if (!last) return null;
  const { lastSeq, truncated } = last.data as ExportSummary;
  // A truncated export holds the oldest entries, which never change: a new one would be the same.
  if (!truncated && (await ctx.ledger.missionChangedAfter(householdId, missionId, lastSeq ?? 0))) return null;
  return ctx.artifacts.get(householdId, last.artifactId);
}

async function newExport(ctx: ArtifactsAuditContext, householdId: string, missionId: string) {
  const { entries, truncated } = await ctx.ledger.missionEntriesWithin(householdId, missionId, {
    maxEntries: EXPORT_MAX_ENTRIES,
    maxChars: EXPORT_MAX_CHARS,
    beforePage: withinDeadline,
  });
  const lastSeq = entries.at(-1)?.seq ?? null;
  const summary: ExportSummary = {
    missionId,
    entryCount: entries.length,
    lastSeq,
    truncated,
    ...(truncated
      ? {
          rest: `GET /api/v1/households/${householdId}/missions/${missionId}/audit?afterSeq=${lastSeq ?? 0}`,
        }
      : {}),
  };
  withinDeadline();
  const { artifact } = await ctx.artifacts.create({
    householdId,
    missionId,
    type: 'AuditLog',
    data: { ...summary, entries },
    summary,
  });
  return artifact;
}
