import {
  CreatePurchaseRequest,
  ErrorEnvelope,
  HouseholdParams,
  ListPurchaseRequestsQuery,
  PurchaseRequest,
  PurchaseRequestParams,
  PurchaseRequestView,
} from '@hs/contracts';
import { errorResponses, notFound, nowIso, type ServiceApp } from '@hs/service-kit';
import { z } from 'zod';
import type { GatewayContext } from '../../context.ts';
import { publicRequest, ROLE_RULES } from '../../domain/purchase-request-rules.ts';
import { budgetView, mayReadBudget, monthOf } from '../../domain/spending-policy.ts';
import { createPurchaseRequest } from '../../flows/create-purchase-request.ts';
import { guarded } from '../../flows/purchase-gate.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { accessHousehold } from '../../plugins/household-access.ts';
import { IdempotencyHeaders, idempotencyScope } from '../../plugins/idempotency-key.ts';
import { gateAccess } from './gate-access.ts';

const tags = ['purchase-requests'];
const security = [{ bearer: [] }];
const errors = errorResponses(401, 403, 404);

export function registerCreateAndReadRoutes(app: ServiceApp, ctx: GatewayContext): void {
  const { requests, policies } = ctx.buyflow;

  app.post(
    '/api/v1/households/:id/requests',
    {
      config: gateAccess(ctx, 'CREATE_PURCHASE_REQUEST', ROLE_RULES.create),
      schema: {
        tags,
        security,
        summary: 'Ask to buy something',
        description:
          "ADULT or PARENT_GUARDIAN (CHILD: 403). price is a positive number in major units up to 1,000,000; currency an ISO 4217 code; url an http(s) URL on a public domain (no IP address, localhost or credentials: 400 POLICY_VIOLATION). The request starts PENDING_APPROVAL and is listed in the household's purchaseRequests. Honours Idempotency-Key.",
        params: HouseholdParams,
        headers: IdempotencyHeaders,
        body: CreatePurchaseRequest,
        response: {
          201: PurchaseRequest,
          400: ErrorEnvelope,
          ...errors,
          409: ErrorEnvelope,
          422: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const householdId = request.params.id;
      const { userId } = currentUser(request);
      const gate = {
        householdId,
        action: 'CREATE_PURCHASE_REQUEST' as const,
        actorId: userId,
        targetId: null,
      };
      const { member } = await guarded(ctx, request, gate, () =>
        accessHousehold(ctx.households, request, householdId),
      );
      const result = await createPurchaseRequest(ctx, request, {
        householdId,
        member,
        body: request.body,
        idempotency: idempotencyScope(request, userId),
      });
      return reply.code(result.status as 201).send(result.body);
    },
  );

  app.get(
    '/api/v1/households/:id/requests',
    {
      schema: {
        tags,
        security,
        summary: "List the household's purchase requests, newest first",
        params: HouseholdParams,
        querystring: ListPurchaseRequestsQuery,
        response: { 200: z.array(PurchaseRequest), ...errors, 422: ErrorEnvelope },
      },
    },
    async (request) => {
      await accessHousehold(ctx.households, request, request.params.id);
      return (await requests.list(request.params.id, request.query.status)).map(publicRequest);
    },
  );

  app.get(
    '/api/v1/households/:id/requests/:requestId',
    {
      schema: {
        tags,
        security,
        summary: "One purchase request with its requester's budget",
        description:
          "budget shows the requester's spending policy for the current month (UTC): monthlyLimit, spentThisMonth (approved-or-later requests in the policy currency) and remaining (null when there is no monthly cap). A PARENT_GUARDIAN sees it on every request, other members only on their own (null on anyone else's). A request of another household is 404.",
        params: PurchaseRequestParams,
        response: { 200: PurchaseRequestView, ...errors },
      },
    },
    async (request) => {
      const { id, requestId } = request.params;
      const { member } = await accessHousehold(ctx.households, request, id);
      const found = await requests.get(id, requestId);
      if (!found) throw notFound('Purchase request not found');
      if (!mayReadBudget(member, found.requesterId)) return { ...publicRequest(found), budget: null };
      const policy = await policies.getPolicy(id, found.requesterId);
      const currency = policy?.currency ?? found.currency;
      const ledger = await policies.getLedger(id, found.requesterId, monthOf(nowIso()), currency);
      return { ...publicRequest(found), budget: budgetView(policy, ledger, currency) };
    },
  );
}
