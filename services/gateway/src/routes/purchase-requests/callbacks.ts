import {
  CartFailedCallback,
  CartReadyCallback,
  ErrorEnvelope,
  PurchaseRequest,
  PurchaseRequestParams,
} from '@hs/contracts';
import { forbidden, internalTokenOf, type ServiceApp, secretsEqual } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.ts';
import { cartFailed, cartReady } from '../../flows/cart-callbacks.ts';

export const BUYFLOW_TOKEN_MESSAGE = 'Missing or invalid internal buy-flow token';

const callbackSchema = <B extends typeof CartReadyCallback | typeof CartFailedCallback>(
  summary: string,
  body: B,
  description: string,
  guard: (request: FastifyRequest) => void,
) => ({
  // The token is checked by the route-access hook, before the body: 403 whatever the body.
  config: { public: true as const, guard },
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
  const target = (request: FastifyRequest<{ Params: { id: string; requestId: string } }>) => ({
    householdId: request.params.id,
    requestId: request.params.requestId,
  });

  app.post(
    '/api/v1/households/:id/requests/:requestId/cart-ready',
    callbackSchema(
      'Cart-prep callback: the cart is ready',
      CartReadyCallback,
      'From CART_PREP only (else 409 CONFLICT) → CART_READY with the cart. A repeat of the same callback (the same job and cart: a retry after a lost answer) answers 200 with the request unchanged; another cart for that job is 409. Money safety: a cart that does not match the approval (a currency other than the request\'s, a subtotal above price × quantity, another merchantDomain, a checkoutUrl that is not https on that merchant or its subdomains, or one with a user name or password) is refused: the request goes back to APPROVED with lastFailure {errorCode: SAFETY_VIOLATION, message: "Cart refused: ..."} (200 with the request, and a CRITICAL PURCHASE_GATE entry), so nobody is asked to confirm more than was approved. The cart is kept with its checkoutUrl in canonical (WHATWG) spelling. A new purchase intent may retry.',
      checkToken,
    ),
    async (request) => cartReady(ctx, request, target(request), request.body),
  );

  app.post(
    '/api/v1/households/:id/requests/:requestId/failed',
    callbackSchema(
      'Cart-prep callback: cart preparation failed',
      CartFailedCallback,
      'From CART_PREP only (else 409 CONFLICT) → back to APPROVED with lastFailure {jobId, errorCode, message, evidence, at} (evidence: the page the job ended on, a screenshot reference and a one-line reason), so a new purchase intent can retry.',
      checkToken,
    ),
    async (request) => cartFailed(ctx, request, target(request), request.body),
  );
}
