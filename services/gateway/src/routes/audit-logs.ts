import { AuditEntry, AuditPage, HouseholdAuditQuery, HouseholdParams } from '@hs/contracts';
import { errorResponses, type ServiceApp, upstreamError } from '@hs/service-kit';
import { z } from 'zod';
import type { GatewayContext } from '../context.ts';
import { accessHousehold } from '../plugins/household-access.ts';

// Checked by the route-access hook with membership, before the query is validated: a CHILD or
// ADULT is 403 whatever the query holds (decisions, order of checks).
const config = {
  roles: ['PARENT_GUARDIAN'] as const,
  rolesMessage: 'Only a PARENT_GUARDIAN may read the audit log',
};

export function registerAuditLogRoutes(app: ServiceApp, ctx: GatewayContext): void {
  app.get(
    '/api/v1/households/:id/audit-logs',
    {
      // The body is the contract's array; only the document needs the total's header added.
      config: {
        ...config,
        openapi: {
          responses: {
            200: {
              type: 'array',
              items: { $ref: '#/components/schemas/AuditEntry' },
              headers: {
                'X-Total-Count': {
                  type: 'integer',
                  description:
                    'How many entries the filters match, on all pages together (beforeSeq does not narrow it).',
                },
              },
            },
          },
        },
      },
      schema: {
        tags: ['audit'],
        security: [{ bearer: [] }],
        description:
          'PARENT_GUARDIAN only (403 for other members, before the query is looked at); the read is itself recorded (DATA_ACCESS). The household audit log, newest first. Paging with limit (default 50, max 500) and offset; filters action, targetType (matched whatever its letter case: the services write both HOUSEHOLD and household), category; a value outside those is 422 VALIDATION_ERROR. The total count is in the x-total-count header. Each read adds its own entry at the top, so offset pages slide by one a read: to walk the log page by page, ask each next page with beforeSeq set to the seq of the last entry received (and no offset).',
        params: HouseholdParams,
        querystring: HouseholdAuditQuery,
        response: { 200: z.array(AuditEntry), ...errorResponses(401, 403, 404, 422, 502, 504) },
      },
    },
    async (request, reply) => {
      const { userId, email, member } = await accessHousehold(ctx.households, request, request.params.id);
      const page = await ctx.peers['artifacts-audit'].call({
        method: 'GET',
        path: `/api/v1/households/${encodeURIComponent(request.params.id)}/audit`,
        query: request.query,
        requestId: request.id,
        caller: { userId, role: member.role, email },
        schema: AuditPage,
      });
      // The ledger answers for this household only: an entry of another one is a broken peer's
      // answer (or a proxy's), and none of it goes to this family.
      const foreign = page.body.items.find((e) => e.householdId !== request.params.id);
      if (foreign) {
        request.log.error(
          { eventId: foreign.eventId },
          'audit ledger answered an entry of another household',
        );
        throw upstreamError('artifacts-audit answered entries of another household');
      }
      reply.header('x-total-count', String(page.body.total));
      return page.body.items;
    },
  );
}
