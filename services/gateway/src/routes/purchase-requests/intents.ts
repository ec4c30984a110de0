import {
  CreatePurchaseIntentRequest,
  ErrorEnvelope,
  PurchaseIntent,
  PurchaseRequestParams,
} from '@hs/contracts';
import type { ServiceApp } from '@hs/service-kit';
import type { GatewayContext } from '../../context.ts';
import { ROLE_RULES, requireGate } from '../../domain/purchase-request-rules.ts';
import { recoverOwedAudits } from '../../flows/owed-audit.ts';
import { guarded } from '../../flows/purchase-gate.ts';
import { recoverDispatches, startPurchaseIntent } from '../../flows/start-purchase-intent.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { accessHousehold } from '../../plugins/household-access.ts';
import { IdempotencyHeaders, idempotencyScope, sendStored } from '../../plugins/idempotency-key.ts';
import { gateAccess } from './gate-access.ts';

/** The user's route to start a purchase; the steps live in flows/start-purchase-intent.ts. */
export function registerIntentRoutes(app: ServiceApp, ctx: GatewayContext): void {
  const { idempotency } = ctx.buyflow;

  app.post(
    '/api/v1/households/:id/requests/:requestId/purchase-intents',
    {
      config: gateAccess(ctx, 'CREATE_PURCHASE_INTENT', ROLE_RULES.intent),
      schema: {
        tags: ['purchase-requests'],
        security: [{ bearer: [] }],
        summary: 'Start the purchase: create the intent and dispatch cart preparation',
        description:
          'ADULT or PARENT_GUARDIAN (CHILD: 403). The request must be APPROVED (else 409 CONFLICT). Returns 201 with a one-time confirmationToken (32 random bytes, base64url; only its hash is stored) bound to the caller and this request, valid CHECKOUT_TOKEN_TTL_SECONDS; it is needed for confirm-checkout once the cart is ready. The request moves to CART_PREP. Cart-prep unreachable or busy (asked twice with the same job id, since a lost answer may hide a job it made; after a timeout the second ask waits at most 2 s): 502/503/504 and the request stays APPROVED (lastFailure set); the household already has CARTPREP_MAX_ACTIVE_JOBS_PER_HOUSEHOLD carts being prepared, or the buyer CARTPREP_MAX_ACTIVE_JOBS_PER_USER across their households: 429 RATE_LIMITED with Retry-After, the request stays APPROVED. Honours Idempotency-Key (a replay returns the same token). When the caller’s own purchase is already under way (CART_PREP or CART_READY: an earlier answer that never arrived, say), the 409 names POST .../confirmation-token, which issues a fresh token for it.',
        params: PurchaseRequestParams,
        headers: IdempotencyHeaders,
        body: CreatePurchaseIntentRequest,
        response: {
          201: PurchaseIntent,
          401: ErrorEnvelope,
          403: ErrorEnvelope,
          404: ErrorEnvelope,
          409: ErrorEnvelope,
          422: ErrorEnvelope,
          429: ErrorEnvelope,
          502: ErrorEnvelope,
          503: ErrorEnvelope,
          504: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const { id, requestId } = request.params;
      const { userId } = currentUser(request);
      const gate = {
        householdId: id,
        action: 'CREATE_PURCHASE_INTENT' as const,
        actorId: userId,
        targetId: requestId,
      };
      const { scope, key } = idempotencyScope(request, userId);
      const result = await guarded(ctx, request, gate, async () => {
        const { member } = await accessHousehold(ctx.households, request, id);
        // Before any replay: a replayed intent carries a confirmation token, never for a CHILD.
        requireGate(member, 'intent');
        return idempotency.run(scope, key, request.body, async () => {
          const intent = await startPurchaseIntent(ctx, request, gate);
          return { status: 201, body: intent };
        });
      });
      return sendStored(reply, result);
    },
  );

  if (ctx.buyflow.background) {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> = Promise.resolve();
    const tick = () => {
      running = recoverDispatches(ctx)
        .catch((err) => ctx.logger?.warn({ err }, 'cart-prep dispatch recovery failed'))
        .then(() => recoverOwedAudits(ctx))
        .catch((err) => ctx.logger?.warn({ err }, 'owed audit entry recovery failed'))
        .finally(() => {
          if (timer !== undefined) timer = setTimeout(tick, 15_000);
        });
    };
    app.addHook('onReady', async () => {
      timer = setTimeout(tick, 0);
    });
    app.addHook('onClose', async () => {
      clearTimeout(timer);
      timer = undefined;
      await running;
    });
  }
}
