import {
  CreatePurchaseIntentRequest,
  ErrorEnvelope,
  PurchaseIntent,
  PurchaseRequestParams,
} from '@hs/contracts';
import { isAppError, newId, notFound, nowIso, type ServiceApp } from '@hs/service-kit';
import { ABORT } from '@hs/store';
import type { GatewayContext } from '../../context.ts';
import { newConfirmationToken } from '../../domain/confirmation-token.ts';
import { applyEvent, assertCanApply } from '../../domain/purchase-request-machine.ts';
import { requireGate, type StoredPurchaseRequest } from '../../domain/purchase-request-rules.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { accessHousehold } from '../../plugins/household-access.ts';
import { auditGate, guarded, IdempotencyHeaders, idempotencyScope, isRefusal } from './gate.ts';

/**
 * Creating a purchase intent is three named steps:
 *  1. issue the confirmation token (stored as a hash; harmless if nothing follows),
 *  2. move the request APPROVED → CART_PREP with the intent and a job id derived from it,
 *     marked `dispatchPending` (the atomic update makes one of two racing intents win),
 *  3. dispatch the job to cart-prep (idempotent on the job id), then clear `dispatchPending`.
 * Undo of step 3 failing (cart-prep down or refusing): the request goes back to APPROVED with
 * lastFailure set, as the table's cartFailed transition does, and the caller gets 502/504.
 * A crash between 2 and 3 leaves the request CART_PREP with `dispatchPending`: the recovery
 * sweep (at boot and every 15 s) re-sends the same job id, so no job is lost or doubled.
 */
export function registerIntentRoutes(app: ServiceApp, ctx: GatewayContext): void {
  const { requests, tokens, idempotency } = ctx.buyflow;

  app.post(
    '/api/v1/households/:id/requests/:requestId/purchase-intents',
    {
      schema: {
        tags: ['purchase-requests'],
        security: [{ bearer: [] }],
        summary: 'Start the purchase: create the intent and dispatch cart preparation',
        description:
          'ADULT or PARENT_GUARDIAN (CHILD: 403). The request must be APPROVED (else 409 CONFLICT). Returns 201 with a one-time confirmationToken (32 random bytes, base64url; only its hash is stored) bound to the caller and this request, valid CHECKOUT_TOKEN_TTL_SECONDS; it is needed for confirm-checkout once the cart is ready. The request moves to CART_PREP. Cart-prep unreachable: 502/504 and the request stays APPROVED (lastFailure set). Honours Idempotency-Key (a replay returns the same token).',
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
          502: ErrorEnvelope,
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
        return idempotency.run(scope, key, request.body, async () => {
          requireGate(member, 'intent');
          const found = await requests.get(id, requestId);
          if (!found) throw notFound('Purchase request not found');
          assertCanApply('startCartPrep', found.status);

          const now = nowIso();
          const intentId = newId('pi');
          const cartprepJobId = `cpj_${intentId.slice(3)}`;
          const expiresAt = new Date(
            Date.now() + ctx.config.buyflow.checkoutTokenTtlSeconds * 1000,
          ).toISOString();
          const { token, tokenHash } = newConfirmationToken();
          await tokens.save({
            tokenHash,
            householdId: id,
            requestId,
            intentId,
            actorId: userId,
            expiresAt,
            usedAt: null,
            createdAt: now,
          });

          const { doc } = await requests.change(requestId, (r) =>
            applyEvent(
              r,
              'startCartPrep',
              { intentId, cartprepJobId, intentActorId: userId, dispatchPending: true, cart: null },
              now,
            ),
          );
          if (!doc) throw notFound('Purchase request not found');

          try {
            await dispatch(ctx, doc, request.id);
          } catch (err) {
            await revertDispatch(ctx, doc, err);
            // A refusal by cart-prep (e.g. domain not allowed) is audited by `guarded`.
            if (!isRefusal(err))
              await auditGate(ctx, request, gate, 'FAILED', {
                intentId,
                cartprepJobId,
                reason: (err as Error).message,
              });
            throw err;
          }
          await auditGate(ctx, request, gate, 'ALLOWED', { intentId, cartprepJobId, expiresAt });
          return {
            status: 201,
            body: {
              intentId,
              requestId,
              actorId: userId,
              cartprepJobId,
              confirmationToken: token,
              expiresAt,
            },
          };
        });
      });
      return reply.code(result.status as 201).send(result.body);
    },
  );

  if (ctx.buyflow.background) {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> = Promise.resolve();
    const tick = () => {
      running = recoverDispatches(ctx)
        .catch((err) => ctx.logger?.warn({ err }, 'cart-prep dispatch recovery failed'))
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

/** Step 3: send the job; clear `dispatchPending` once cart-prep has it. */
async function dispatch(ctx: GatewayContext, doc: StoredPurchaseRequest, requestId?: string): Promise<void> {
  await ctx.buyflow.cartprep.dispatch(doc, requestId);
  await ctx.buyflow.requests.change(doc.requestId, (r) =>
    r.cartprepJobId === doc.cartprepJobId && r.dispatchPending ? { ...r, dispatchPending: false } : ABORT,
  );
}

/** Undo of step 2 when cart-prep never got the job: back to APPROVED so a new intent can retry. */
async function revertDispatch(ctx: GatewayContext, doc: StoredPurchaseRequest, err: unknown): Promise<void> {
  const at = nowIso();
  const message = `Cart preparation could not be started: ${isAppError(err) ? err.message : 'cart-prep failed'}`;
  const errorCode =
    isAppError(err) && err.code === 'POLICY_VIOLATION' ? 'DOMAIN_NOT_ALLOWED' : 'INTERNAL_ERROR';
  await ctx.buyflow.requests.change(doc.requestId, (r) =>
    r.status === 'CART_PREP' && r.cartprepJobId === doc.cartprepJobId
      ? applyEvent(
          r,
          'cartFailed',
          { dispatchPending: false, lastFailure: { jobId: doc.cartprepJobId, errorCode, message, at } },
          at,
        )
      : ABORT,
  );
}

/**
 * Re-sends jobs a crash may have left undispatched (older than 10 s, so a request still in its
 * route is not raced). Cart-prep dedupes on the job id; a request that left CART_PREP in the
 * meantime just loses its flag.
 */
export async function recoverDispatches(ctx: GatewayContext): Promise<number> {
  const before = new Date(Date.now() - 10_000).toISOString();
  let sent = 0;
  for (const r of await ctx.buyflow.requests.pendingDispatch(before)) {
    if (r.status !== 'CART_PREP') {
      await ctx.buyflow.requests.change(r.requestId, (cur) =>
        cur.dispatchPending ? { ...cur, dispatchPending: false } : ABORT,
      );
      continue;
    }
    try {
      await dispatch(ctx, r);
      sent++;
    } catch (err) {
      ctx.logger?.warn({ err, requestId: r.requestId }, 'cart-prep dispatch still failing; will retry');
    }
  }
  return sent;
}
