import { ConfirmCheckoutRequest, ErrorEnvelope, PurchaseRequest, PurchaseRequestParams } from '@hs/contracts';
import { conflict, notFound, type ServiceApp } from '@hs/service-kit';
import type { GatewayContext } from '../../context.ts';
import { presentedToken, TOKEN_MESSAGES } from '../../domain/confirmation-token.ts';
import { recordId } from '../../domain/idempotency.ts';
import { ROLE_RULES, requireGate } from '../../domain/purchase-request-rules.ts';
import { confirmCheckout } from '../../flows/confirm-checkout.ts';
import { guarded } from '../../flows/purchase-gate.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { accessHousehold } from '../../plugins/household-access.ts';
import { IdempotencyHeaders, idempotencyScope, sendStored } from '../../plugins/idempotency-key.ts';
import { gateAccess } from './gate-access.ts';

export function registerCheckoutRoutes(app: ServiceApp, ctx: GatewayContext): void {
  const { idempotency } = ctx.buyflow;

  app.post(
    '/api/v1/households/:id/requests/:requestId/confirm-checkout',
    {
      attachValidation: true,
      config: gateAccess(ctx, 'CONFIRM_CHECKOUT', ROLE_RULES.confirm),
      schema: {
        tags: ['purchase-requests'],
        security: [{ bearer: [] }],
        summary: 'Confirm the final checkout with the one-time confirmation token',
        description:
          'Checked in this order: CHILD → 403; confirmationToken missing (whatever else the body holds, even no body) → 409; a body that is not {confirmationToken: string} → 422; token unknown, of another request or a superseded intent, expired, or issued to another member → 403; token already used → 409; request not CART_READY → 409. Success → COMPLETED and the token is spent by one atomic compare-and-set, so of any number of concurrent confirmations exactly one succeeds. Honours Idempotency-Key; a keyed retry whose first attempt completed the checkout but whose reply was lost (the gateway restarted) gets the COMPLETED request, marked Idempotent-Replayed.',
        params: PurchaseRequestParams,
        headers: IdempotencyHeaders,
        body: ConfirmCheckoutRequest,
        response: {
          200: PurchaseRequest,
          401: ErrorEnvelope,
          403: ErrorEnvelope,
          404: ErrorEnvelope,
          409: ErrorEnvelope,
          422: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const { id, requestId } = request.params;
      const { userId } = currentUser(request);
      const gate = {
        householdId: id,
        action: 'CONFIRM_CHECKOUT' as const,
        actorId: userId,
        targetId: requestId,
      };
      const { scope, key } = idempotencyScope(request, userId);
      const result = await guarded(ctx, request, gate, async () => {
        const { member } = await accessHousehold(ctx.households, request, id);
        // The role is checked before a stored success can be replayed: a member demoted to
        // CHILD since then is refused, first, like any CHILD (decisions: CHILD → 403 first).
        requireGate(member, 'confirm');
        // Then the request's existence (404), a missing token (409) whatever the body, and only
        // then the body's schema (422): the route attaches its validation error instead of
        // answering it before this handler. The flow reads the request again, after a replay.
        if (!(await ctx.buyflow.requests.get(id, requestId))) throw notFound('Purchase request not found');
        const token = presentedToken(request.body);
        if (!token) throw conflict(TOKEN_MESSAGES.missing);
        if (request.validationError) throw request.validationError;
        // Under a key the token's spend records the key's idempotency record id (a hash, never the
        // key), so a retry whose first attempt completed the checkout but died before its reply was
        // stored (a crash: the record's lease ran out) gets that reply, marked as a replay.
        const usedUnder = key === undefined ? undefined : recordId(scope, key);
        let recovered = false;
        const run = await idempotency.run(scope, key, request.body, async () => {
          const confirmed = await confirmCheckout(ctx, request, gate, token, usedUnder);
          recovered = confirmed.replayed;
          return { status: 200, body: confirmed.body };
        });
        return { ...run, replayed: run.replayed || recovered };
      });
      return sendStored(reply, result);
    },
  );
}
