import type { AuditSeverity } from '@hs/contracts';
import { type AppError, isAppError } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GatewayContext } from '../../context.ts';
import { IDEMPOTENCY_KEY } from '../../domain/idempotency.ts';

/** The gates of the buy flow, as they appear in the audit log's `action`. */
export type GateAction =
  | 'CREATE_PURCHASE_REQUEST'
  | 'APPROVE_PURCHASE_REQUEST'
  | 'REJECT_PURCHASE_REQUEST'
  | 'CANCEL_PURCHASE_REQUEST'
  | 'CREATE_PURCHASE_INTENT'
  | 'CART_READY'
  | 'CART_FAILED'
  | 'CONFIRM_CHECKOUT'
  | 'ISSUE_CONFIRMATION_TOKEN'
  | 'SET_SPENDING_POLICY';

export type Gate = {
  householdId: string;
  action: GateAction;
  actorId: string | null;
  targetId: string | null;
};

/** One PURCHASE_GATE entry (durable: the audit outbox retries until the ledger has it). */
export function auditGate(
  ctx: GatewayContext,
  request: FastifyRequest,
  gate: Gate,
  outcome: 'ALLOWED' | 'REFUSED' | 'FAILED',
  detail: Record<string, unknown> = {},
  severity: AuditSeverity = outcome === 'ALLOWED' ? 'INFO' : 'WARNING',
): Promise<void> {
  return ctx.audit.record(
    gate.householdId,
    {
      category: 'PURCHASE_GATE',
      action: gate.action,
      actorId: gate.actorId,
      targetType: gate.action === 'SET_SPENDING_POLICY' ? 'MEMBER' : 'PURCHASE_REQUEST',
      targetId: gate.targetId,
      severity,
      detail: { outcome, ...detail },
    },
    request.id,
  );
}

/** A reported cart that doesn't match its approval: a safety violation, beside the gate's entry. */
export function auditCartMismatch(
  ctx: GatewayContext,
  request: FastifyRequest,
  gate: Gate,
  detail: Record<string, unknown>,
): Promise<void> {
  return ctx.audit.record(
    gate.householdId,
    {
      category: 'SAFETY_VIOLATION',
      severity: 'CRITICAL',
      action: 'CART_MISMATCH',
      actorId: gate.actorId,
      targetType: 'PURCHASE_REQUEST',
      targetId: gate.targetId,
      detail,
    },
    request.id,
  );
}

/** A refusal of the gate (as opposed to a failure of the system): 400 policy, 403, 409. */
export const isRefusal = (err: unknown): err is AppError =>
  isAppError(err) && [400, 403, 409].includes(err.status);

/**
 * Runs a gate and records every refusal (403, 409, 400 policy) in the audit log before the
 * error reaches the client. A missing household (404) has no log to write to; a validation
 * error never reached the gate.
 */
export async function guarded<T>(
  ctx: GatewayContext,
  request: FastifyRequest,
  gate: Gate,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isRefusal(err)) {
      await auditGate(ctx, request, gate, 'REFUSED', {
        status: err.status,
        code: err.code,
        reason: err.message,
      });
    }
    throw err;
  }
}

/** Documents (and passes through) the optional Idempotency-Key header; other headers are kept. */
export const IdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(IDEMPOTENCY_KEY, 'must be 1-255 visible ASCII characters')
    .optional()
    .describe(
      'Optional. A retry with the same key and body replays the first success (no second effect); the same key with another body is 422 VALIDATION_ERROR; a retry while the first is running is 409 CONFLICT. Keys are scoped to the user and the path and kept 24 hours.',
    ),
});

/**
 * The idempotency scope of a request: one user, one method, one route and its decoded
 * parameters. Built from the route rather than the raw URL, so a retry that spells the same path
 * differently (`%5F` for `_`, a doubled slash) is still the same operation and is not run twice.
 */
export function idempotencyScope(
  request: FastifyRequest,
  userId: string,
): { scope: string; key: string | undefined } {
  const raw = request.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  const params = Object.entries((request.params ?? {}) as Record<string, string>).sort(([a], [b]) =>
    a < b ? -1 : 1,
  );
  return { scope: `${userId} ${request.method} ${request.routeOptions.url} ${JSON.stringify(params)}`, key };
}
