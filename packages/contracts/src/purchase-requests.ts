import { z } from 'zod';
import { Cart, CartprepEvidence, CartprepFailureCode } from './cartprep.ts';
import { NoBody, optionalBody, queryInteger, ShownParagraph, ShownText, Timestamp } from './common.ts';
import { amountsFitCurrency, isKnownCurrency } from './money.ts';

/** An ISO 4217 code the runtime knows (Intl.supportedValuesOf('currency')). */
export const PurchaseCurrency = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be an upper-case ISO 4217 code such as EUR')
  .refine(isKnownCurrency, 'is not a known ISO 4217 currency code');

/** Prices and limits in major units; anything above a million is a typo or an attack. */
export const MAX_PURCHASE_AMOUNT = 1_000_000;
export const PurchaseAmount = z
  .number()
  .finite()
  .positive()
  .max(MAX_PURCHASE_AMOUNT)
  .describe('major units, with no more decimals than the currency has (EUR 2, JPY 0, BHD 3); finer is 422');

export const PurchaseRequestStatus = z.enum([
  'PENDING_APPROVAL',
  'APPROVED',
  'CART_PREP',
  'CART_READY',
  'COMPLETED',
  'REJECTED',
  'CANCELLED',
]);
export type PurchaseRequestStatus = z.infer<typeof PurchaseRequestStatus>;

export const CreatePurchaseRequest = z
  .object({
    // Shown to the parent who approves: nothing that makes it read otherwise than it is.
    title: ShownText(200, 1),
    url: z.string().min(1).max(2048),
    price: PurchaseAmount,
    currency: PurchaseCurrency,
    offerId: z.string().min(1).max(128).nullable().optional(),
    size: ShownText(40, 1).nullable().optional(),
    quantity: z.number().int().min(1).max(99).default(1),
    note: ShownParagraph(1000).nullable().optional(),
  })
  .superRefine(amountsFitCurrency('price'));
export type CreatePurchaseRequest = z.infer<typeof CreatePurchaseRequest>;

export const PurchaseFailure = z.object({
  jobId: z.string().nullable(),
  errorCode: CartprepFailureCode,
  message: z.string().nullable(),
  evidence: CartprepEvidence.nullable().optional(),
  at: Timestamp,
});
export type PurchaseFailure = z.infer<typeof PurchaseFailure>;

/** How much of the requester's monthly budget is left (null limits: no cap). */
export const BudgetView = z.object({
  currency: z.string().nullable(),
  perRequestLimit: z.number().nullable(),
  monthlyLimit: z.number().nullable(),
  spentThisMonth: z.number(),
  remaining: z.number().nullable(),
});
export type BudgetView = z.infer<typeof BudgetView>;

export const PurchaseRequest = z.object({
  requestId: z.string(),
  householdId: z.string(),
  requesterId: z.string(),
  title: z.string(),
  url: z.string(),
  merchantDomain: z.string(),
  price: z.number(),
  currency: z.string(),
  offerId: z.string().nullable(),
  size: z.string().nullable(),
  quantity: z.number().int(),
  note: z.string().nullable(),
  status: PurchaseRequestStatus,
  approvedBy: z.string().nullable(),
  approvedAt: Timestamp.nullable(),
  intentId: z.string().nullable(),
  cartprepJobId: z.string().nullable(),
  cart: Cart.nullable(),
  lastFailure: PurchaseFailure.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
/** What cart-prep checks of the gateway's answer to its callback before it takes it for delivered. */
export const PurchaseRequestReceipt = PurchaseRequest.pick({ requestId: true, status: true });

export type PurchaseRequest = z.infer<typeof PurchaseRequest>;

/** GET /requests/{id} adds the requester's budget (null for a reader who may not see it). */
export const PurchaseRequestView = PurchaseRequest.extend({ budget: BudgetView.nullable() });
export type PurchaseRequestView = z.infer<typeof PurchaseRequestView>;

export const PurchaseRequestParams = z.object({
  id: z.string().min(1).max(128),
  requestId: z.string().min(1).max(128),
});

/** The most purchase requests one page of `GET /requests` returns. */
export const MAX_PURCHASE_REQUEST_PAGE = 200;

/** Newest first, a page at a time: pass the previous reply's `X-Next-Cursor` back as `cursor`. */
export const ListPurchaseRequestsQuery = z.object({
  status: PurchaseRequestStatus.optional(),
  // 100: most households' whole history, for a client that does not page yet.
  limit: queryInteger(1, MAX_PURCHASE_REQUEST_PAGE).withDefault(100),
  cursor: z.string().min(1).max(2048).optional(),
});
export type ListPurchaseRequestsQuery = z.infer<typeof ListPurchaseRequestsQuery>;

/**
 * The response headers of a page of `GET /requests` that is not the last one, as the OpenAPI
 * document shows them (JSON Schema per header; the body stays a plain array).
 */
export const NEXT_PAGE_HEADERS = {
  'X-Next-Cursor': {
    type: 'string',
    description: 'Only when more requests follow: pass it as `cursor` (same status) for the next page.',
  },
  Link: {
    type: 'string',
    description:
      'Only when more requests follow: `<next page URL>; rel="next"`, the same query with the cursor.',
  },
} as const;

export const RejectPurchaseRequest = optionalBody(z.object({ reason: ShownParagraph(500).optional() }));
export const CancelPurchaseRequest = optionalBody(z.object({ reason: ShownParagraph(500).optional() }));

export const CreatePurchaseIntentRequest = NoBody;

export const PurchaseIntent = z.object({
  intentId: z.string(),
  requestId: z.string(),
  actorId: z.string(),
  cartprepJobId: z.string(),
  /** Shown once: only its SHA-256 hash is kept. */
  confirmationToken: z.string(),
  expiresAt: Timestamp,
});
export type PurchaseIntent = z.infer<typeof PurchaseIntent>;

export const CartReadyCallback = z.object({ jobId: z.string().min(1).max(128), cart: Cart });
export type CartReadyCallback = z.infer<typeof CartReadyCallback>;

export const CartFailedCallback = z.object({
  jobId: z.string().min(1).max(128),
  errorCode: CartprepFailureCode,
  message: z.string().max(2000).nullable().optional(),
  evidence: CartprepEvidence.nullable().optional(),
});
export type CartFailedCallback = z.infer<typeof CartFailedCallback>;

/** The token is optional in the schema: a missing one is 409 CONFLICT, not a validation error. */
export const ConfirmCheckoutRequest = optionalBody(
  z.object({ confirmationToken: z.string().max(512).optional() }),
);
export type ConfirmCheckoutRequest = z.infer<typeof ConfirmCheckoutRequest>;

export const SpendingPolicyInput = z
  .object({
    perRequestLimit: PurchaseAmount.nullable(),
    monthlyLimit: PurchaseAmount.nullable(),
    currency: PurchaseCurrency,
  })
  .superRefine(amountsFitCurrency('perRequestLimit', 'monthlyLimit'));
export type SpendingPolicyInput = z.infer<typeof SpendingPolicyInput>;

export const SpendingPolicy = z.object({
  householdId: z.string(),
  memberId: z.string(),
  perRequestLimit: z.number().nullable(),
  monthlyLimit: z.number().nullable(),
  currency: z.string().nullable(),
  updatedAt: Timestamp.nullable(),
  updatedBy: z.string().nullable(),
});
export type SpendingPolicy = z.infer<typeof SpendingPolicy>;

/**
 * An intent started by the stylist agent on the user's behalf (internal route). It carries no
 * confirmation token: tokens reach people, never the model; the user asks for one with
 * POST /requests/{id}/confirmation-token.
 */
export const AgentPurchaseIntent = PurchaseIntent.omit({ confirmationToken: true });
export type AgentPurchaseIntent = z.infer<typeof AgentPurchaseIntent>;

export const IssuedConfirmationToken = z.object({
  requestId: z.string(),
  intentId: z.string(),
  actorId: z.string(),
  confirmationToken: z.string(),
  expiresAt: Timestamp,
});
export type IssuedConfirmationToken = z.infer<typeof IssuedConfirmationToken>;
