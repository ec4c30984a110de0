import {
  AgentPurchaseIntent,
  CALLER_HEADERS,
  CreatePurchaseRequest,
  ErrorEnvelope,
  HouseholdParams,
  IssuedConfirmationToken,
  type Member,
  PurchaseRequest,
  PurchaseRequestParams,
} from '@hs/contracts';
import {
  conflict,
  forbidden,
  internalTokenOf,
  notFound,
  type ServiceApp,
  secretsEqual,
  unauthorized,
} from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.ts';
import { memberOf } from '../../domain/household-rules.ts';
import { publicRequest, ROLE_RULES, requireGate } from '../../domain/purchase-request-rules.ts';
import { createPurchaseRequest } from '../../flows/create-purchase-request.ts';
import { auditGate, guarded } from '../../flows/purchase-gate.ts';
import { issueConfirmationToken, startPurchaseIntent } from '../../flows/start-purchase-intent.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { accessHousehold } from '../../plugins/household-access.ts';
import { IdempotencyHeaders, idempotencyScope, sendStored } from '../../plugins/idempotency-key.ts';
import { gateAccess } from './gate-access.ts';

const INTERNAL_LIST = '/api/v1/internal/households/:id/requests';
const INTERNAL = `${INTERNAL_LIST}/:requestId`;

/**
 * The stylist agent's way into the buy flow (the orchestrator's request_purchase, prepare_cart
 * and check_cart tools): raise a request for an offer, read a request, and start cart
 * preparation for an APPROVED one, as the mission owner, under the same role rules and audit
 * as the user routes. It never buys: the checkout token is not
 * returned here; the owner asks for one (POST /requests/{id}/confirmation-token) and confirms.
 */
export function registerAgentIntentRoutes(app: ServiceApp, ctx: GatewayContext): void {
  // One household read per request: the guard finds the acting member, the handler reuses it.
  const acting = new WeakMap<FastifyRequest, Promise<Member>>();
  const actingMember = (request: FastifyRequest, householdId: string): Promise<Member> => {
    const seen = acting.get(request);
    if (seen) return seen;
    const found = (async () => {
      if (!secretsEqual(internalTokenOf(request), ctx.config.internalToken))
        throw forbidden('Missing or invalid internal token');
      const userId = request.headers[CALLER_HEADERS.userId];
      if (typeof userId !== 'string' || !userId) throw unauthorized('Acting user (X-User-Id) is missing');
      const household = await ctx.households.get(householdId);
      if (!household) throw notFound('Household not found');
      return memberOf(household, userId);
    })();
    acting.set(request, found);
    return found;
  };

  /**
   * The route-access hook's guard for these routes (they carry no bearer): the internal token
   * (403), the acting user (401), the household (404) and membership (403), then the gate's role
   * (403, audited) where there is one, all before the params or the body are validated
   * (decisions, order of checks).
   */
  const guardOf =
    (gate?: { action: 'CREATE_PURCHASE_REQUEST' | 'CREATE_PURCHASE_INTENT'; rule: 'create' | 'intent' }) =>
    async (request: FastifyRequest) => {
      const { id, requestId } = request.params as { id: string; requestId?: string };
      const member = await actingMember(request, id);
      if (!gate) return;
      const ref = {
        householdId: id,
        action: gate.action,
        actorId: member.memberId,
        targetId: requestId ?? null,
      };
      await guarded(ctx, request, ref, async () => requireGate(member, gate.rule));
    };

  app.post(
    INTERNAL_LIST,
    {
      config: { public: true, guard: guardOf({ action: 'CREATE_PURCHASE_REQUEST', rule: 'create' }) },
      schema: {
        tags: ['internal'],
        security: [{ internalToken: [] }],
        description:
          'Raises a purchase request on behalf of the acting user (X-User-Id), exactly as POST /api/v1/households/{id}/requests does: ADULT or PARENT_GUARDIAN (CHILD: 403, audited). The internal token (403), X-User-Id (401), the household (404), membership and role (403) are checked before the body (413, 400, 422). Then the same merchant-URL rule, PENDING_APPROVAL, audited, Idempotency-Key honoured (the stylist sends one per mission and offer). Nothing is approved or bought.',
        params: HouseholdParams,
        headers: IdempotencyHeaders,
        body: CreatePurchaseRequest,
        response: {
          201: PurchaseRequest,
          400: ErrorEnvelope,
          401: ErrorEnvelope,
          403: ErrorEnvelope,
          404: ErrorEnvelope,
          409: ErrorEnvelope,
          422: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const householdId = request.params.id;
      const member = await actingMember(request, householdId);
      const result = await createPurchaseRequest(ctx, request, {
        householdId,
        member,
        body: request.body,
        idempotency: idempotencyScope(request, member.memberId),
      });
      return sendStored(reply, result);
    },
  );

  app.get(
    INTERNAL,
    {
      config: { public: true, guard: guardOf() },
      schema: {
        tags: ['internal'],
        security: [{ internalToken: [] }],
        params: PurchaseRequestParams,
        response: { 200: PurchaseRequest, 401: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const { id, requestId } = request.params;
      await actingMember(request, id);
      const found = await ctx.buyflow.requests.get(id, requestId);
      if (!found) throw notFound('Purchase request not found');
      return publicRequest(found);
    },
  );

  app.post(
    `${INTERNAL}/purchase-intents`,
    {
      config: { public: true, guard: guardOf({ action: 'CREATE_PURCHASE_INTENT', rule: 'intent' }) },
      schema: {
        tags: ['internal'],
        security: [{ internalToken: [] }],
        description:
          'Starts cart preparation for an APPROVED request on behalf of the acting user (X-User-Id, ADULT or PARENT_GUARDIAN). No confirmation token is returned.',
        params: PurchaseRequestParams,
        response: {
          201: AgentPurchaseIntent,
          401: ErrorEnvelope,
          403: ErrorEnvelope,
          404: ErrorEnvelope,
          409: ErrorEnvelope,
          502: ErrorEnvelope,
          504: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const { id, requestId } = request.params;
      const member = await actingMember(request, id);
      const gate = {
        householdId: id,
        action: 'CREATE_PURCHASE_INTENT' as const,
        actorId: member.memberId,
        targetId: requestId,
      };
      const intent = await guarded(ctx, request, gate, async () => {
        requireGate(member, 'intent');
        return startPurchaseIntent(ctx, request, gate);
      });
      const { confirmationToken: _shownToNobody, ...withoutToken } = intent;
      return reply.code(201).send(withoutToken);
    },
  );

  app.post(
    '/api/v1/households/:id/requests/:requestId/confirmation-token',
    {
      config: gateAccess(ctx, 'ISSUE_CONFIRMATION_TOKEN', ROLE_RULES.confirm),
      schema: {
        tags: ['purchase-requests'],
        security: [{ bearer: [] }],
        summary: 'Get a one-time checkout confirmation token for the current intent',
        description:
          'For the member who started the current purchase intent (by the app or through the stylist agent), while the request is CART_PREP or CART_READY. CHILD: 403; another member: 403; other states: 409. Each token is one-time and valid CHECKOUT_TOKEN_TTL_SECONDS; earlier unexpired tokens of the same intent stay valid, and the request completes once whichever is spent first.',
        params: PurchaseRequestParams,
        response: {
          201: IssuedConfirmationToken,
          401: ErrorEnvelope,
          403: ErrorEnvelope,
          404: ErrorEnvelope,
          409: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const { id, requestId } = request.params;
      const { userId } = currentUser(request);
      const gate = {
        householdId: id,
        action: 'ISSUE_CONFIRMATION_TOKEN' as const,
        actorId: userId,
        targetId: requestId,
      };
      const issued = await guarded(ctx, request, gate, async () => {
        const { member } = await accessHousehold(ctx.households, request, id);
        requireGate(member, 'confirm');
        const found = await ctx.buyflow.requests.get(id, requestId);
        if (!found) throw notFound('Purchase request not found');
        if ((found.status !== 'CART_PREP' && found.status !== 'CART_READY') || !found.intentId)
          throw conflict(
            `Purchase request is ${found.status}; a checkout token exists only during cart preparation`,
          );
        if (found.intentActorId !== userId)
          throw forbidden('Only the member who started the purchase can confirm it');
        const token = await issueConfirmationToken(ctx, {
          householdId: id,
          requestId,
          intentId: found.intentId,
          actorId: userId,
        });
        return { requestId, intentId: found.intentId, actorId: userId, ...token };
      });
      await auditGate(ctx, request, gate, 'ALLOWED', {
        intentId: issued.intentId,
        expiresAt: issued.expiresAt,
      });
      return reply.code(201).send(issued);
    },
  );
}
