import {
  CartFailedCallback,
  CartReadyCallback,
  ErrorEnvelope,
  PurchaseRequest,
  PurchaseRequestParams,
} from '@hs/contracts';
import {
  conflict,
  forbidden,
  internalTokenOf,
  notFound,
  nowIso,
  type ServiceApp,
  secretsEqual,
} from '@hs/service-kit';
import { ABORT } from '@hs/store';
import type { FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.ts';
import { cartRefusal } from '../../domain/purchase-request-cart.ts';
import { applyEvent } from '../../domain/purchase-request-machine.ts';
import { publicRequest, type StoredPurchaseRequest } from '../../domain/purchase-request-rules.ts';
import { auditGate, guarded } from './gate.ts';

export const BUYFLOW_TOKEN_MESSAGE = 'Missing or invalid internal buy-flow token';
/** The lastFailure code of a cart refused for not matching the approval. */
const CART_REFUSED_CODE = 'SAFETY_VIOLATION' as const;
const CALLBACK_ACTOR = 'cartprep';

const callbackSchema = <B extends typeof CartReadyCallback | typeof CartFailedCallback>(
  summary: string,
  body: B,
  description: string,
) => ({
  config: { public: true as const },
  schema: {
    tags: ['internal'],
    security: [{ internalToken: [] }],
    summary,
    description: `${description} Internal: X-Internal-Token must equal BUYFLOW_INTERNAL_TOKEN (403 "${BUYFLOW_TOKEN_MESSAGE}"; REQUIRE_BUYFLOW_INTERNAL_TOKEN=false skips the check in development). Repeating a callback with the same jobId answers 200 with the request and changes nothing; a jobId that is not the request's current job is 409.`,
    params: PurchaseRequestParams,
    body,
    response: {
      200: PurchaseRequest,
      403: ErrorEnvelope,
      404: ErrorEnvelope,
      409: ErrorEnvelope,
      422: ErrorEnvelope,
    },
  },
});

/** cart-ready and failed: cart-prep's callbacks, authenticated by the buy-flow token instead of a bearer. */
export function registerCallbackRoutes(app: ServiceApp, ctx: GatewayContext): void {
  const checkToken = (request: FastifyRequest) => {
    if (!ctx.config.buyflow.requireInternalToken) return;
    if (!secretsEqual(internalTokenOf(request), ctx.config.buyflow.internalToken))
      throw forbidden(BUYFLOW_TOKEN_MESSAGE);
  };

  /** A callback's transition; `replayed(r)` says the same callback was already applied. */
  const callback = async (
    request: FastifyRequest<{ Params: { id: string; requestId: string } }>,
    action: 'CART_READY' | 'CART_FAILED',
    jobId: string,
    replayed: (r: StoredPurchaseRequest) => boolean,
    apply: (r: StoredPurchaseRequest, now: string) => { next: StoredPurchaseRequest; refused?: string },
    detail: Record<string, unknown>,
  ) => {
    const { id, requestId } = request.params;
    checkToken(request);
    const gate = { householdId: id, action, actorId: CALLBACK_ACTOR, targetId: requestId };
    if (!(await ctx.households.get(id))) throw notFound('Household not found');
    return guarded(ctx, request, gate, async () => {
      const now = nowIso();
      let replay = false;
      let refused: string | undefined;
      const { doc } = await ctx.buyflow.requests.change(requestId, (r) => {
        replay = false;
        refused = undefined;
        if (r.householdId !== id) return ABORT;
        if (replayed(r)) {
          replay = true;
          return ABORT;
        }
        if (r.status === 'CART_PREP' && r.cartprepJobId !== jobId)
          throw conflict(
            `Callback is for job ${jobId}, but the request is waiting for job ${r.cartprepJobId}`,
          );
        const outcome = apply(r, now);
        refused = outcome.refused;
        return outcome.next;
      });
      if (!doc || doc.householdId !== id) throw notFound('Purchase request not found');
      if (refused)
        await auditGate(ctx, request, gate, 'REFUSED', { jobId, reason: refused, ...detail }, 'CRITICAL');
      else if (!replay) await auditGate(ctx, request, gate, 'ALLOWED', { jobId, ...detail });
      return publicRequest(doc);
    });
  };

  app.post(
    '/api/v1/households/:id/requests/:requestId/cart-ready',
    callbackSchema(
      'Cart-prep callback: the cart is ready',
      CartReadyCallback,
      'From CART_PREP only (else 409 CONFLICT) → CART_READY with the cart. Money safety: a cart that does not match the approval (a currency other than the request\'s, a subtotal above price × quantity, another merchantDomain, or a checkoutUrl that is not https on that merchant or its subdomains) is refused: the request goes back to APPROVED with lastFailure {errorCode: SAFETY_VIOLATION, message: "Cart refused: ..."} (200 with the request, and a CRITICAL PURCHASE_GATE entry), so nobody is asked to confirm more than was approved. A new purchase intent may retry.',
    ),
    async (request) =>
      callback(
        request,
        'CART_READY',
        request.body.jobId,
        (r) =>
          (r.cartprepJobId === request.body.jobId &&
            (r.status === 'CART_READY' || r.status === 'COMPLETED')) ||
          // This job's cart was refused before: same answer, no second transition.
          (r.status !== 'CART_PREP' &&
            r.lastFailure?.jobId === request.body.jobId &&
            r.lastFailure.errorCode === CART_REFUSED_CODE),
        (r, now) => {
          const { jobId, cart } = request.body;
          // Only a cart for the job the request waits for is judged; anything else is refused below.
          const refused =
            r.status === 'CART_PREP' && r.cartprepJobId === jobId
              ? cartRefusal(r, cart, ctx.config.allowPrivateMerchantHosts)
              : null;
          if (!refused) return { next: applyEvent(r, 'cartReady', { cart, dispatchPending: false }, now) };
          const message = `Cart refused: ${refused}. The request is back to APPROVED; start a new purchase to retry.`;
          const lastFailure = { jobId, errorCode: CART_REFUSED_CODE, message, at: now };
          return { next: applyEvent(r, 'cartFailed', { dispatchPending: false, lastFailure }, now), refused };
        },
        {
          subtotal: request.body.cart.subtotal,
          currency: request.body.cart.currency,
          merchantDomain: request.body.cart.merchantDomain,
        },
      ),
  );

  app.post(
    '/api/v1/households/:id/requests/:requestId/failed',
    callbackSchema(
      'Cart-prep callback: cart preparation failed',
      CartFailedCallback,
      'From CART_PREP only (else 409 CONFLICT) → back to APPROVED with lastFailure {jobId, errorCode, message, evidence, at} (evidence: the page the job ended on, a screenshot reference and a one-line reason), so a new purchase intent can retry.',
    ),
    async (request) => {
      const { jobId, errorCode } = request.body;
      const message = request.body.message ?? null;
      const evidence = request.body.evidence ?? null;
      return callback(
        request,
        'CART_FAILED',
        jobId,
        (r) => r.lastFailure?.jobId === jobId && r.status !== 'CART_PREP',
        (r, now) => ({
          next: applyEvent(
            r,
            'cartFailed',
            { dispatchPending: false, lastFailure: { jobId, errorCode, message, evidence, at: now } },
            now,
          ),
        }),
        { errorCode, message },
      );
    },
  );
}
