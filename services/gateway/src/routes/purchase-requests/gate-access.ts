import type { Role } from '@hs/contracts';
import type { AppError } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.ts';
import { auditRefusal, type Gate, type GateAction } from '../../flows/purchase-gate.ts';

/**
 * The route config of a gate: its roles (ROLE_RULES), checked with membership by the route-access
 * hook before the body is read, and an audit entry for a refusal there, as `guarded` writes one
 * for refusals in the handler.
 */
export function gateAccess(
  ctx: GatewayContext,
  action: GateAction,
  rule?: { roles: readonly Role[]; message: string },
) {
  return {
    ...(rule ? { roles: rule.roles, rolesMessage: rule.message } : {}),
    onRefused: async (request: FastifyRequest, refusal: AppError) => {
      const params = request.params as { id: string; requestId?: string; memberId?: string };
      const gate: Gate = {
        householdId: params.id,
        action,
        actorId: request.user?.userId ?? null,
        targetId: params.requestId ?? params.memberId ?? null,
      };
      await auditRefusal(ctx, request, gate, refusal);
    },
  };
}
