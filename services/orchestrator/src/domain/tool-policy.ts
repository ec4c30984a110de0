import type { ToolOutcome } from './agent-model.ts';

/** Codes with which a service refuses an action on policy grounds, not for being down or wrong. */
const POLICY_CODES = new Set(['FORBIDDEN', 'POLICY_VIOLATION', 'SAFETY_VIOLATION']);

/**
 * A tool call the called service refused by policy (a role it may not act for, a merchant or
 * amount the rules forbid): recorded as SAFETY_VIOLATION rather than as an ordinary failure.
 */
export const isPolicyRefusal = (outcome: ToolOutcome): boolean =>
  !outcome.ok && POLICY_CODES.has(outcome.error.code);
