// Real browsers (local Chromium, a hosted provider's concurrent sessions) are one pool for every
// household: BROWSER_MAX_SESSIONS local sessions in all, a plan's concurrency for the hosted one.
// Without a share per household, one member could hold the whole pool with a few INTERACTIVE
// missions (each keeps its session open while it is used) and every other family would get 503.
import { rateLimited } from '@hs/service-kit';

/** Seconds a refused household is told to wait: ending a session frees its place at once. */
export const RETRY_AFTER_SECONDS = 30;

export type HouseholdShare = {
  /** BROWSER_MAX_SESSIONS_PER_HOUSEHOLD */
  max: number;
  /** BROWSER_MAX_SESSIONS_PER_USER: a session owner's open sessions across all their households. */
  maxPerUser: number;
  /** BROWSER_IDLE_TIMEOUT_SECONDS, in ms. */
  idleMs: number;
};

/**
 * The open sessions that still hold a browser. Where the provider can tell (`holdsBrowser`: the
 * local pool knows which browsers are alive, whatever the row says), its answer decides: a session
 * watched or steered in the live view for an hour keeps its browser (the idle reaper counts that as
 * use) although its row has not changed. Otherwise a row unchanged for longer than the idle
 * timeout is not counted: such a row is left behind when the service restarted (its browser went
 * with the process) or a hosted provider ended it on its own; counting it would shut the household
 * out until someone ends a session they cannot see.
 */
export function heldSessions<S extends { updatedAt: string }>(
  open: readonly S[],
  nowMs: number,
  idleMs: number,
  holdsBrowser?: (session: S) => boolean,
): number {
  const held = holdsBrowser ?? ((s: S) => Date.parse(s.updatedAt) >= nowMs - idleMs);
  return open.filter(held).length;
}

/** 429 RATE_LIMITED once the household already holds its share of open sessions. */
export function refuseWhenHouseholdHoldsMax(held: number, max: number): void {
  if (held < max) return;
  throw rateLimited(
    `This household already has ${max} browser sessions open (BROWSER_MAX_SESSIONS_PER_HOUSEHOLD); end one and try again`,
    RETRY_AFTER_SECONDS,
  );
}
