import {
  AppendAuditEventRequest,
  ArtifactsAuditHouseholdParams,
  AuditChainVerification,
  AuditEntry,
  AuditMissionParams,
  AuditPage,
  HouseholdAuditQuery,
  MAX_AUDIT_OFFSET,
  MissionAuditQuery,
} from '@hs/contracts';
import type { ServiceApp } from '@hs/service-kit';
import { errorResponses } from '@hs/service-kit';
import type { ArtifactsAuditContext } from '../context.ts';
import { assertMissionOfHousehold, GUARDIAN_ONLY_AUDIT, guardianOrService } from './access.ts';
import { recordDataAccess } from './data-access.ts';

const tags = ['audit'];
const security = [{ internalToken: [] }];
const errors = errorResponses(403, 422);
const GUARDIAN_READ =
  ' A member forwarded by the gateway must be a PARENT_GUARDIAN (403 otherwise); the read is recorded in the log (DATA_ACCESS).';

/** The ledger: append and read only. No route changes or deletes an entry. */
export function registerAuditRoutes(app: ServiceApp, ctx: ArtifactsAuditContext): void {
  app.post(
    '/api/v1/households/:id/audit/events',
    {
      schema: {
        tags,
        security,
        description:
          'Appends an entry to the household hash chain. Idempotent on eventId: the same eventId again answers 200 with the entry already stored (nothing is appended). Without eventId one is assigned.',
        params: ArtifactsAuditHouseholdParams,
        body: AppendAuditEventRequest,
        response: { 200: AuditEntry, 201: AuditEntry, ...errors },
      },
    },
    async (request, reply) => {
      const { entry, created } = await ctx.ledger.append(request.params.id, request.body);
      return reply.code(created ? 201 : 200).send(entry);
    },
  );

  app.get(
    '/api/v1/households/:id/audit',
    {
      schema: {
        tags,
        security,
        description: `The household log, newest first (by seq). limit default 50, max 500; offset at most ${MAX_AUDIT_OFFSET} (422 beyond); beforeSeq pages on by seq (entries with a smaller seq; total still counts every entry the filters match); equality filters action, targetType (any letter case matches), category.${GUARDIAN_READ}`,
        params: ArtifactsAuditHouseholdParams,
        querystring: HouseholdAuditQuery,
        response: { 200: AuditPage, ...errors },
      },
      config: guardianOrService(GUARDIAN_ONLY_AUDIT),
    },
    async (request) => {
      const page = await ctx.ledger.householdPage(request.params.id, request.query);
      await recordDataAccess(ctx, request, request.params.id, {
        action: 'AUDIT_LOG_READ',
        targetType: 'household',
        targetId: request.params.id,
        detail: { returned: page.items.length },
      });
      return page;
    },
  );

  app.get(
    '/api/v1/households/:id/missions/:mId/audit',
    {
      schema: {
        tags,
        security,
        description: `A mission's audit trail, oldest first. limit default 50, max 500; offset at most ${MAX_AUDIT_OFFSET} (422 beyond); afterSeq pages on by seq (entries with a greater seq; total still counts the whole trail). A mission that does not exist, or is another household's, is 404 NOT_FOUND.${GUARDIAN_READ}`,
        params: AuditMissionParams,
        querystring: MissionAuditQuery,
        response: { 200: AuditPage, ...errorResponses(403, 404, 422) },
      },
      config: guardianOrService(GUARDIAN_ONLY_AUDIT),
    },
    async (request) => {
      const { id, mId } = request.params;
      // A member's read names a mission of this household (404 otherwise, nothing recorded).
      await assertMissionOfHousehold(ctx, request, id, mId);
      const page = await ctx.ledger.missionTrail(id, mId, request.query);
      await recordDataAccess(ctx, request, id, {
        action: 'MISSION_AUDIT_READ',
        missionId: mId,
        targetType: 'mission',
        targetId: mId,
        detail: { returned: page.items.length },
      });
      return page;
    },
  );

  app.get(
    '/api/v1/households/:id/audit/verify',
    {
      schema: {
        tags,
        security,
        description:
          'Walks the household chain from seq 1, recomputing each hash and checking each prevHash link; reports the first broken seq and why.',
        params: ArtifactsAuditHouseholdParams,
        response: { 200: AuditChainVerification, ...errors },
      },
    },
    async (request) => ctx.ledger.verify(request.params.id),
  );
}
