import { ConfirmCheckoutRequest, ErrorEnvelope, PurchaseRequest, PurchaseRequestParams } from '@hs/contracts';
import { conflict, notFound, nowIso, type ServiceApp } from '@hs/service-kit';
import type { GatewayContext } from '../../context.ts';
import {
  checkConfirmationToken,
  hashConfirmationToken,
  TOKEN_MESSAGES,
} from '../../domain/confirmation-token.ts';
import { applyEvent, assertCanApply } from '../../domain/purchase-request-machine.ts';
import { publicRequest, ROLE_RULES, requireGate } from '../../domain/purchase-request-rules.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { accessHousehold } from '../../plugins/household-access.ts';
import { auditGate, gateAccess, guarded, IdempotencyHeaders, idempotencyScope } from './gate.ts';

export function registerCheckoutRoutes(app: ServiceApp, ctx: GatewayContext): void {
  const { requests, tokens, idempotency } = ctx.buyflow;

  app.post(
    '/api/v1/households/:id/requests/:requestId/confirm-checkout',
    {
      config: gateAccess(ctx, 'CONFIRM_CHECKOUT', ROLE_RULES.confirm),
      schema: {
        tags: ['purchase-requests'],
        security: [{ bearer: [] }],
        summary: 'Confirm the final checkout with the one-time confirmation token',
        description:
          'Checked in this order: CHILD → 403; confirmationToken missing → 409; token unknown, of another request or a superseded intent, expired, or issued to another member → 403; token already used → 409; request not CART_READY → 409. Success → COMPLETED and the token is spent by one atomic compare-and-set, so of any number of concurrent confirmations exactly one succeeds. Honours Idempotency-Key.',
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
        return idempotency.run(scope, key, request.body, async () => {
          const found = await requests.get(id, requestId);
          if (!found) throw notFound('Purchase request not found');
          const token = request.body.confirmationToken || undefined;
          const tokenHash = token ? hashConfirmationToken(token) : '';
          const stored = token ? await tokens.find(tokenHash) : null;
          checkConfirmationToken(token, stored, {
            householdId: id,
            requestId,
            intentId: found.intentId,
            actorId: userId,
            now: Date.now(),
          });
          assertCanApply('confirmCheckout', found.status);
          const now = nowIso();
          // The one place money is committed: exactly one caller flips usedAt from null.
          if (!(await tokens.spend(tokenHash, now))) throw conflict(TOKEN_MESSAGES.used);
          const { doc } = await requests.change(requestId, (r) => applyEvent(r, 'confirmCheckout', {}, now));
          if (!doc) throw notFound('Purchase request not found');
          await auditGate(ctx, request, gate, 'ALLOWED', {
            intentId: doc.intentId,
            subtotal: doc.cart?.subtotal ?? null,
            currency: doc.currency,
          });
          return { status: 200, body: publicRequest(doc) };
        });
      });
      return reply.code(result.status as 200).send(result.body);
    },
  );
}
