import { z } from 'zod';
import { Timestamp } from './common.ts';

/** Spec part 7: why a cart-prep job failed (the job's errorCode, never an HTTP error). */
export const CartprepFailureCode = z.enum([
  'BLOCKED_BOT_DETECTED',
  'SIZE_UNAVAILABLE',
  'POPUP_OVERLAY_UNRESOLVED',
  'LOGIN_REQUIRED',
  'UNKNOWN_DOM',
  'TIMEOUT',
  'DOMAIN_NOT_ALLOWED',
  'SAFETY_VIOLATION',
  'INTERNAL_ERROR',
]);
export type CartprepFailureCode = z.infer<typeof CartprepFailureCode>;

export const CartprepJobStatus = z.enum(['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED']);
export type CartprepJobStatus = z.infer<typeof CartprepJobStatus>;

const Money = z.number().finite().nonnegative();

export const CartItem = z.object({
  title: z.string(),
  size: z.string().nullable(),
  quantity: z.number().int().positive(),
  unitPrice: Money,
});
export type CartItem = z.infer<typeof CartItem>;

/** A prepared cart, ready for the final checkout confirmation. */
export const Cart = z.object({
  items: z.array(CartItem).min(1).max(50),
  subtotal: Money,
  currency: z.string().regex(/^[A-Z]{3}$/),
  merchantDomain: z.string().min(1).max(253),
  checkoutUrl: z.url(),
});
export type Cart = z.infer<typeof Cart>;

/** What a failed job saw last: the page it ended on, a screenshot of it, and why it stopped. */
export const CartprepEvidence = z.object({
  finalUrl: z.string().max(2048).nullable(),
  screenshotRef: z.string().max(1024).nullable(),
  reason: z.string().max(500),
});
export type CartprepEvidence = z.infer<typeof CartprepEvidence>;

export const CartprepJobId = z.string().regex(/^cpj_[A-Za-z0-9_-]{8,64}$/, 'must look like cpj_<id>');

export const CreateCartprepJobRequest = z.object({
  jobId: CartprepJobId.optional(),
  householdId: z.string().min(1).max(128),
  requestId: z.string().min(1).max(128),
  // Optional so a gateway from before it still dispatches; such a job counts for its household only.
  actorId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe(
      "the user whose purchase intent the job prepares (the gateway's intent actor); CARTPREP_MAX_ACTIVE_JOBS_PER_USER bounds their jobs queued or running across all their households",
    ),
  url: z.string().min(1).max(2048),
  size: z.string().min(1).max(40).nullable().optional(),
  quantity: z.number().int().min(1).max(99).default(1),
  /** What the shopper expects; the simulated executor builds its cart from them. */
  title: z.string().min(1).max(200).optional(),
  unitPrice: z.number().finite().positive().max(1_000_000).optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
});
export type CreateCartprepJobRequest = z.input<typeof CreateCartprepJobRequest>;

export const CartprepJob = z.object({
  jobId: z.string(),
  householdId: z.string(),
  requestId: z.string(),
  url: z.string(),
  size: z.string().nullable(),
  quantity: z.number().int(),
  status: CartprepJobStatus,
  errorCode: CartprepFailureCode.nullable(),
  errorMessage: z.string().nullable(),
  cart: Cart.nullable(),
  // Optional on the wire: a cart-prep from before evidence existed still answers the gateway.
  evidence: CartprepEvidence.nullable().optional(),
  attempts: z.number().int().nonnegative(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  startedAt: Timestamp.nullable(),
  finishedAt: Timestamp.nullable(),
});
export type CartprepJob = z.infer<typeof CartprepJob>;

export const CartprepJobParams = z.object({ jobId: z.string().min(1).max(128) });
export const HouseholdCartprepJobParams = z.object({
  id: z.string().min(1).max(128),
  jobId: z.string().min(1).max(128),
});
