import {
  CreatePurchaseRequest,
  ErrorEnvelope,
  HouseholdParams,
  ListPurchaseRequestsQuery,
  MAX_HOUSEHOLD_PURCHASE_REQUEST_IDS,
  MAX_PURCHASE_REQUEST_PAGE,
  NEXT_PAGE_HEADERS,
  PurchaseRequest,
  PurchaseRequestParams,
  PurchaseRequestView,
} from '@hs/contracts';
import { badRequest, errorResponses, locationOf, notFound, nowIso, type ServiceApp } from '@hs/service-kit';
import { StoreQueryError } from '@hs/store';
import { z } from 'zod';
import type { GatewayContext } from '../../context.ts';
import { publicRequest, ROLE_RULES } from '../../domain/purchase-request-rules.ts';
import { budgetView, mayReadBudget, monthOf } from '../../domain/spending-policy.ts';
import { spendingLedger } from '../../flows/budget-reservation.ts';
import { createPurchaseRequest } from '../../flows/create-purchase-request.ts';
import { guarded } from '../../flows/purchase-gate.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { accessHousehold } from '../../plugins/household-access.ts';
import { IdempotencyHeaders, idempotencyScope, sendStored } from '../../plugins/idempotency-key.ts';
import { gateAccess } from './gate-access.ts';
import { sendNextPageHeaders } from './next-page-headers.ts';

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
        description: `ADULT or PARENT_GUARDIAN (CHILD: 403). price is a positive number in major units up to 1,000,000, with no more decimals than its currency has (EUR 2, JPY 0, BHD 3; finer is 422 VALIDATION_ERROR, while binary noise such as 19.990000000000002 is stored as 19.99); totals are rounded to the currency's smallest unit; currency an ISO 4217 code; url an http(s) URL on a public domain and its scheme's default port (no IP address, localhost, credentials or other port: 400 POLICY_VIOLATION), stored in its canonical (WHATWG) spelling, as commerce stores offer URLs. offerId, when given, must name an offer of this household (another household's, or none: 404 NOT_FOUND, nothing saved; commerce unreachable: 502/504). The request starts PENDING_APPROVAL and is listed in the household's purchaseRequests (which keeps the ${MAX_HOUSEHOLD_PURCHASE_REQUEST_IDS} most recent ids). Honours Idempotency-Key.`,
        params: HouseholdParams,
        headers: IdempotencyHeaders,
        body: CreatePurchaseRequest,
        response: {
          201: PurchaseRequest,
          400: ErrorEnvelope,
          ...errors,
          409: ErrorEnvelope,
          422: ErrorEnvelope,
          502: ErrorEnvelope,
          504: ErrorEnvelope,
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
      return sendStored(reply, result, (body) =>
        locationOf(request, (body as { requestId: string }).requestId),
      );
    },
  );

  app.get(
    '/api/v1/households/:id/requests',
    {
      // The body is the contract's array; only the document needs the next-page headers added.
      config: {
        openapi: {
          responses: {
            200: {
              type: 'array',
              items: { $ref: '#/components/schemas/PurchaseRequest' },
              headers: NEXT_PAGE_HEADERS,
            },
          },
        },
      },
      schema: {
        tags,
        security,
        summary: "List the household's purchase requests, newest first",
        description: `A page at a time: limit (1-${MAX_PURCHASE_REQUEST_PAGE}, default 100; outside that 422) requests, newest first, optionally only those with one status. When more follow, the reply carries X-Next-Cursor and Link (rel="next"): pass the cursor back, with the same status, for the next page; the last page carries neither. A cursor the gateway did not issue is 400 BAD_REQUEST "Invalid cursor".`,
        params: HouseholdParams,
        querystring: ListPurchaseRequestsQuery,
        response: {
          200: z.array(PurchaseRequest),
          400: ErrorEnvelope,
          ...errors,
          422: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      await accessHousehold(ctx.households, request, request.params.id);
      const { status, limit, cursor } = request.query;
      let page: Awaited<ReturnType<typeof requests.list>>;
      try {
        page = await requests.list(request.params.id, status, { limit, cursor: cursor ?? null });
      } catch (err) {
        // The store refuses a cursor it did not issue for this query: the client's mistake.
        if (cursor && err instanceof StoreQueryError) throw badRequest('Invalid cursor');
        throw err;
      }
      sendNextPageHeaders(request, reply, page.nextCursor);
      return page.items.map(publicRequest);
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
      const ledger = await spendingLedger(
        ctx.buyflow,
        await policies.getLedger(id, found.requesterId, monthOf(nowIso()), currency),
      );
      return { ...publicRequest(found), budget: budgetView(policy, ledger, currency) };
    },
  );
}
