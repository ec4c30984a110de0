import { createHash, randomBytes } from 'node:crypto';
import { conflict, forbidden } from '@hs/service-kit';

/** What the store keeps of a checkout confirmation token: its hash, never the token. */
export type StoredCheckoutToken = {
  tokenHash: string;
  householdId: string;
  requestId: string;
  intentId: string;
  actorId: string;
  expiresAt: string;
  usedAt: string | null;
  /**
   * Under which Idempotency-Key the token was spent: the idempotency record's id (a SHA-256 of
   * the key's scope, which names the actor and the request, and the key; never the key itself),
   * written by the same compare-and-set as usedAt. Absent when spent without a key, and on records
   * spent before this field existed: such a token's every later presentation is "used" (409).
   */
  usedUnder?: string;
  createdAt: string;
  /**
   * When the record may be deleted (epoch ms): expiresAt + CHECKOUT_TOKEN_RETENTION_MS, written
   * at save. Records saved before this field existed lack it (see checkout-token-store.ts).
   */
  purgeAfter?: number;
};

/**
 * How long a token's record is kept after the token expires. Past its expiry a presented token
 * answers 403 whatever it held (expired comes before used in the decisions' order), and once its
 * record is gone 403 too (unknown): only the message changes, from "has expired" to "is
 * invalid". A week keeps that message for any realistic retry of an old token (an Idempotency-Key
 * replay of purchase-intents hands the same token back for at most 24 h).
 */
export const CHECKOUT_TOKEN_RETENTION_MS = 7 * 24 * 3600_000;

/** When a token expiring at `expiresAt` (ISO) may be purged. */
export const purgeAfterOf = (expiresAt: string): number =>
  Date.parse(expiresAt) + CHECKOUT_TOKEN_RETENTION_MS;

export const TOKEN_MESSAGES = {
  missing: 'Confirmation token is missing',
  invalid: 'Confirmation token is invalid',
  expired: 'Confirmation token has expired',
  otherActor: 'Confirmation token was issued to another member',
  used: 'Confirmation token has already been used',
} as const;

export const hashConfirmationToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** 32 random bytes, base64url: shown once to the actor, stored only as its SHA-256. */
export function newConfirmationToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashConfirmationToken(token) };
}

/**
 * The token a confirm-checkout body carries, read before the body's schema is judged (decisions:
 * a missing token is 409 whatever the body): anything but a non-empty string is missing.
 */
export function presentedToken(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const token = (body as { confirmationToken?: unknown }).confirmationToken;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/**
 * Whether a used token was spent under this very Idempotency-Key (`usedUnder`: the idempotency
 * record id of the presenting call; undefined without a key): the keyed retry of a confirmation
 * whose first attempt spent it and died before its reply was stored.
 */
export const spentUnderThisKey = (stored: StoredCheckoutToken, usedUnder: string | undefined): boolean =>
  stored.usedAt !== null && usedUnder !== undefined && stored.usedUnder === usedUnder;

/**
 * The token checks of confirm-checkout in the decisions file's order: missing → 409; unknown,
 * bound to another request or a superseded intent, expired, or issued to another actor → 403;
 * already used → 409. The request-state check and the atomic spend come after. A token used
 * under the presenting call's own Idempotency-Key (`expected.usedUnder`, see spentUnderThisKey)
 * passes the used check, after all the others: the caller answers it as its first attempt did,
 * or finishes what that attempt started.
 */
export function checkConfirmationToken(
  token: string | undefined,
  stored: StoredCheckoutToken | null,
  expected: {
    householdId: string;
    requestId: string;
    intentId: string | null;
    actorId: string;
    now: number;
    usedUnder?: string;
  },
): StoredCheckoutToken {
  if (!token) throw conflict(TOKEN_MESSAGES.missing);
  if (
    !stored ||
    stored.householdId !== expected.householdId ||
    stored.requestId !== expected.requestId ||
    stored.intentId !== expected.intentId
  )
    throw forbidden(TOKEN_MESSAGES.invalid);
  if (Date.parse(stored.expiresAt) <= expected.now) throw forbidden(TOKEN_MESSAGES.expired);
  if (stored.actorId !== expected.actorId) throw forbidden(TOKEN_MESSAGES.otherActor);
  if (stored.usedAt && !spentUnderThisKey(stored, expected.usedUnder)) throw conflict(TOKEN_MESSAGES.used);
  return stored;
}
