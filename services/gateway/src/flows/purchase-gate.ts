import type { AuditInput } from '@hs/audit-client';
import type { AuditSeverity } from '@hs/contracts';
import { type AppError, isAppError } from '@hs/service-kit';
import type { GatewayContext } from '../context.ts';

/** Who asked: the HTTP request's id, carried into the audit entry. */
export type RequestRef = { id: string };

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

/** One PURCHASE_GATE entry, as the audit log records it. */
export function gateEntry(
  gate: Gate,
  outcome: 'ALLOWED' | 'REFUSED' | 'FAILED',
  detail: Record<string, unknown> = {},
  severity: AuditSeverity = outcome === 'ALLOWED' ? 'INFO' : 'WARNING',
): AuditInput {
  return {
    category: 'PURCHASE_GATE',
    action: gate.action,
    actorId: gate.actorId,
    targetType: gate.action === 'SET_SPENDING_POLICY' ? 'MEMBER' : 'PURCHASE_REQUEST',
    targetId: gate.targetId,
    severity,
    detail: { outcome, ...detail },
  };
}

/** One PURCHASE_GATE entry (durable: the audit outbox retries until the ledger has it). */
export function auditGate(
  ctx: GatewayContext,
  request: RequestRef,
  gate: Gate,
  outcome: 'ALLOWED' | 'REFUSED' | 'FAILED',
  detail: Record<string, unknown> = {},
  severity?: AuditSeverity,
): Promise<void> {
  return ctx.audit.record(gate.householdId, gateEntry(gate, outcome, detail, severity), request.id);
}

/**
 * A refusal's PURCHASE_GATE entry, within the caller's budget for that gate and code
 * (adapters/refusal-budget.ts): the last entry of a window says until when its repeats go unrecorded.
 */
export async function auditRefusal(
  ctx: GatewayContext,
  request: RequestRef,
  gate: Gate,
  refusal: AppError,
): Promise<void> {
  const verdict = await ctx.refusals.admit(gate.householdId, gate.actorId, {
    action: gate.action,
    code: refusal.code,
  });
  if (!verdict.record) return;
  await auditGate(ctx, request, gate, 'REFUSED', {
    status: refusal.status,
    code: refusal.code,
    reason: refusal.message,
    ...(verdict.quietUntil ? { furtherRefusalsUnrecordedUntil: verdict.quietUntil } : {}),
  });
}

/** A reported cart that doesn't match its approval: a safety violation, beside the gate's entry. */
export const cartMismatchEntry = (gate: Gate, detail: Record<string, unknown>): AuditInput => ({
  category: 'SAFETY_VIOLATION',
  severity: 'CRITICAL',
  action: 'CART_MISMATCH',
  actorId: gate.actorId,
  targetType: 'PURCHASE_REQUEST',
  targetId: gate.targetId,
  detail,
});

/** A refusal of the gate (as opposed to a failure of the system): 400 policy, 403, 409. */
export const isRefusal = (err: unknown): err is AppError =>
  isAppError(err) && [400, 403, 409].includes(err.status);

/**
 * Runs a gate and records each refusal (403, 409, 400 policy) in the audit log, within the
 * caller's budget, before the error reaches the client. A missing household (404) has no log to write to; a validation
 * error never reached the gate.
 */
export async function guarded<T>(
  ctx: GatewayContext,
  request: RequestRef,
  gate: Gate,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isRefusal(err)) await auditRefusal(ctx, request, gate, err);
    throw err;
  }
}
