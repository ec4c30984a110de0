// The household's share alone did not bound one person: an account may create many households
// (it is their guardian) and hold each one's share, so two INTERACTIVE missions in each of two
// households took all four local browsers and every other family got 503. The mission owner a
// session is opened for has a bound of their own across all their households.
import { rateLimited } from '@hs/service-kit';
import { RETRY_AFTER_SECONDS } from './household-session-limit.ts';

/** 429 RATE_LIMITED once the owner already holds `max` open sessions across their households. */
export function refuseWhenUserHoldsMax(held: number, max: number): void {
  if (held < max) return;
  throw rateLimited(
    `You already have ${max} browser sessions open across your households (BROWSER_MAX_SESSIONS_PER_USER); end one and try again`,
    RETRY_AFTER_SECONDS,
  );
}
