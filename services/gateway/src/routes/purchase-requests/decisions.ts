import {
  CancelPurchaseRequest,
  NoBody,
  PurchaseRequest,
  PurchaseRequestParams,
  RejectPurchaseRequest,
} from '@hs/contracts';
import { errorResponses, notFound, type ServiceApp } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.ts';
import { ROLE_RULES, requireCanCancel } from '../../domain/purchase-request-rules.ts';
import {
  approvePurchaseRequest,
  closePurchaseRequest,
  type Decision,
} from '../../flows/decide-purchase-request.ts';
import { type GateAction, guarded } from '../../flows/purchase-gate.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { accessHousehold } from '../../plugins/household-access.ts';
import { gateAccess } from './gate-access.ts';

const tags = ['purchase-requests'];
const security = [{ bearer: [] }];
const errors = errorResponses(401, 403, 404, 409, 422);
type Params = { id: string; requestId: string };

export function registerDecisionRoutes(app: ServiceApp, ctx: GatewayContext): void {
  const { requests } = ctx.buyflow;

  /** Household access, the gate's audit and the request lookup every decision starts with. */
  const decide = <T>(
    request: FastifyRequest<{ Params: Params }>,
    action: GateAction,
    run: (decision: Decision) => Promise<T>,
  ) => {
    const { id, requestId } = request.params;
    const { userId } = currentUser(request);
    return guarded(
      ctx,
      request,
      { householdId: id, action, actorId: userId, targetId: requestId },
      async () => {
        const { member } = await accessHousehold(ctx.households, request, id);
        const load = async () => {
          const found = await requests.get(id, requestId);
          if (!found) throw notFound('Purchase request not found');
          return found;
        };
        return run({ member, userId, found: await load() });
      },
    );
  };

  app.post(
    '/api/v1/households/:id/requests/:requestId/approve',
    {
      config: gateAccess(ctx, 'APPROVE_PURCHASE_REQUEST', ROLE_RULES.approve),
      schema: {
        tags,
        security,
        summary: 'Approve a purchase request',
        description:
          "PARENT_GUARDIAN only (403 otherwise). Only from PENDING_APPROVAL: an approved or finalized request is 409 CONFLICT. Spending policy: a total (price × quantity) above the requester's perRequestLimit, beyond the rest of their monthlyLimit for this month (UTC), or in another currency than their policy is 409 CONFLICT with the amounts in the message. Approving reserves the total in the month's budget; reject and cancel release it.",
        params: PurchaseRequestParams,
        body: NoBody,
        response: { 200: PurchaseRequest, ...errors },
      },
    },
    async (request) =>
      decide(request, 'APPROVE_PURCHASE_REQUEST', (decision) =>
        approvePurchaseRequest(ctx, request, decision),
      ),
  );

  const finish =
    (event: 'reject' | 'cancel', action: GateAction) =>
    async (request: FastifyRequest<{ Params: Params; Body: { reason?: string | undefined } }>) =>
      decide(request, action, (decision) =>
        closePurchaseRequest(ctx, request, event, decision, request.body?.reason ?? null),
      );

  app.post(
    '/api/v1/households/:id/requests/:requestId/reject',
    {
      config: gateAccess(ctx, 'REJECT_PURCHASE_REQUEST', ROLE_RULES.reject),
      schema: {
        tags,
        security,
        summary: 'Reject a purchase request',
        description:
          'PARENT_GUARDIAN only. From PENDING_APPROVAL or APPROVED → REJECTED (final); otherwise 409 CONFLICT.',
        params: PurchaseRequestParams,
        body: RejectPurchaseRequest,
        response: { 200: PurchaseRequest, ...errors },
      },
    },
    finish('reject', 'REJECT_PURCHASE_REQUEST'),
  );

  /**
   * Who may cancel depends on the request (its requester), so it is not a route role: checked
   * here, after membership (the route-access hook) and before the body is read, so a member who
   * may not cancel is 403 (audited) whatever the body (decisions, order of checks). A missing
   * request is 404 first: there is nobody to compare with.
   */
  const mayCancel = async (request: FastifyRequest) =>
    decide(
      request as FastifyRequest<{ Params: Params }>,
      'CANCEL_PURCHASE_REQUEST',
      async ({ member, found }) => requireCanCancel(member, found),
    );

  app.post(
    '/api/v1/households/:id/requests/:requestId/cancel',
    {
      config: gateAccess(ctx, 'CANCEL_PURCHASE_REQUEST'),
      onRequest: mayCancel,
      schema: {
        tags,
        security,
        summary: 'Cancel a purchase request',
        description:
          'The requester or a PARENT_GUARDIAN (403 otherwise, before the body is looked at). From PENDING_APPROVAL, APPROVED, CART_PREP or CART_READY → CANCELLED (final); otherwise 409 CONFLICT. A cart-prep result arriving later is refused.',
        params: PurchaseRequestParams,
        body: CancelPurchaseRequest,
        response: { 200: PurchaseRequest, ...errors },
      },
    },
    finish('cancel', 'CANCEL_PURCHASE_REQUEST'),
  );
}
