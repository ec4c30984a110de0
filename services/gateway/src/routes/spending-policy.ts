import { MemberParams, SpendingPolicy, SpendingPolicyInput } from '@hs/contracts';
import { errorResponses, forbidden, notFound, nowIso, type ServiceApp } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { ROLE_RULES, requireGate } from '../domain/purchase-request-rules.ts';
import { emptyPolicy, roundedLimit } from '../domain/spending-policy.ts';
import { auditGate, guarded } from '../flows/purchase-gate.ts';
import { currentUser } from '../plugins/authenticate.ts';
import { accessHousehold } from '../plugins/household-access.ts';
import { gateAccess } from './purchase-requests/gate-access.ts';

const tags = ['spending-policy'];
const security = [{ bearer: [] }];
const errors = errorResponses(401, 403, 404, 422);
const PATH = '/api/v1/households/:id/members/:memberId/spending-policy';

/**
 * Household spending policy: per member, a per-request cap and a monthly cap in one currency,
 * enforced when a purchase request is approved (rules in domain/spending-policy.ts).
 */
export function registerSpendingPolicyRoutes(app: ServiceApp, ctx: GatewayContext): void {
  const { policies } = ctx.buyflow;

  app.put(
    PATH,
    {
      config: gateAccess(ctx, 'SET_SPENDING_POLICY', ROLE_RULES.policy),
      schema: {
        tags,
        security,
        summary: "Set a member's spending policy",
        description:
          "PARENT_GUARDIAN only. perRequestLimit caps one request's total (price × quantity); monthlyLimit caps the sum of the member's requests approved in a calendar month (UTC). Either may be null (no cap); both are in currency (ISO 4217) with no more decimals than it has (EUR 2, JPY 0, BHD 3; finer is 422), and while a cap is set only requests in that currency can be approved for the member. Approving above a cap is 409 CONFLICT. Replaces the previous policy.",
        params: MemberParams,
        body: SpendingPolicyInput,
        response: { 200: SpendingPolicy, ...errors },
      },
    },
    async (request) => {
      const { id, memberId } = request.params;
      const { userId } = currentUser(request);
      const gate = {
        householdId: id,
        action: 'SET_SPENDING_POLICY' as const,
        actorId: userId,
        targetId: memberId,
      };
      return guarded(ctx, request, gate, async () => {
        const { member, household } = await accessHousehold(ctx.households, request, id);
        requireGate(member, 'policy');
        if (!household.members.some((m) => m.memberId === memberId)) throw notFound('Member not found');
        const policy: SpendingPolicy = {
          householdId: id,
          memberId,
          ...request.body,
          // The schema let only binary noise past the currency's decimals.
          perRequestLimit: roundedLimit(request.body.perRequestLimit, request.body.currency),
          monthlyLimit: roundedLimit(request.body.monthlyLimit, request.body.currency),
          updatedAt: nowIso(),
          updatedBy: userId,
        };
        await policies.putPolicy(policy);
        await auditGate(ctx, request, gate, 'ALLOWED', { ...request.body });
        return policy;
      });
    },
  );

  /**
   * After membership (the route-access hook) and before the params are validated: a member who is
   * neither a PARENT_GUARDIAN nor the member named is 403 whatever the params, then a member not
   * in the household is 404 (decisions, order of checks).
   */
  const mayReadPolicy = async (request: FastifyRequest) => {
    const { id, memberId } = request.params as { id: string; memberId: string };
    const { member, household } = await accessHousehold(ctx.households, request, id);
    if (member.role !== 'PARENT_GUARDIAN' && member.memberId !== memberId)
      throw forbidden('Only a PARENT_GUARDIAN or the member can read a spending policy');
    if (!household.members.some((m) => m.memberId === memberId)) throw notFound('Member not found');
  };

  app.get(
    PATH,
    {
      onRequest: mayReadPolicy,
      schema: {
        tags,
        security,
        summary: "Read a member's spending policy",
        description:
          'A PARENT_GUARDIAN, or the member themselves. A member without a policy has null limits.',
        params: MemberParams,
        response: { 200: SpendingPolicy, ...errors },
      },
    },
    async (request) => {
      const { id, memberId } = request.params;
      return (await policies.getPolicy(id, memberId)) ?? emptyPolicy(id, memberId);
    },
  );
}
