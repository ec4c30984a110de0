import { ErrorEnvelope, HouseholdMembership, HouseholdParams } from '@hs/contracts';
import { forbidden, internalTokenOf, notFound, type ServiceApp, secretsEqual } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';

/**
 * Peers learn a household's members from here (GATEWAY_INTERNAL_TOKEN) instead of keeping a
 * copy that could go stale: wardrobe checks item owners, vto checks memberId.
 */
export function registerInternalMembershipRoutes(app: ServiceApp, ctx: GatewayContext): void {
  // The route-access hook's guard: the token is 403 before the params are validated.
  const internalToken = (request: FastifyRequest) => {
    if (!secretsEqual(internalTokenOf(request), ctx.config.internalToken))
      throw forbidden('Missing or invalid internal token');
  };

  app.get(
    '/api/v1/internal/households/:id/members',
    {
      config: { public: true, guard: internalToken },
      schema: {
        tags: ['internal'],
        security: [{ internalToken: [] }],
        params: HouseholdParams,
        response: { 200: HouseholdMembership, 403: ErrorEnvelope, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const household = await ctx.households.getRecent(request.params.id);
      if (!household) throw notFound('Household not found');
      return { householdId: household.householdId, members: household.members };
    },
  );
}
