import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import { upstreamTimeout } from './errors.ts';
import { INTERNAL_TOKEN_HEADER } from './internal-auth.ts';

/**
 * How long the caller will still wait, in milliseconds, sent on every internal call. It is
 * relative (like gRPC's `grpc-timeout`) so clocks that disagree between hosts don't matter.
 */
export const REQUEST_TIMEOUT_HEADER = 'x-request-timeout-ms';

/**
 * When the caller sent the request (epoch ms), beside the relative timeout: a request read only
 * after its caller gave up (its process was paused, its event loop stalled while the request sat
 * in the socket) would otherwise count its time from when it was read, and do work whose answer
 * nobody waits for (a 504 already told the family it failed; their retry then did it twice).
 * Such a request is refused unrun. The hosts' clocks are taken to agree (NTP; one host's always
 * do): a service whose clock runs behind its callers' gets an allowance (CLOCK_SKEW_ALLOWANCE_MS,
 * default 0). An allowance lets requests read up to that long after their caller gave up run:
 * 2 s let a voice turn and a cart job run after the family's 504.
 */
export const REQUEST_SENT_AT_HEADER = 'x-request-sent-at';

/** The headers an internal call carries for its deadline: `limitMs` from now. */
export function deadlineHeaders(limitMs: number, now = Date.now()): Record<string, string> {
  return { [REQUEST_TIMEOUT_HEADER]: String(limitMs), [REQUEST_SENT_AT_HEADER]: String(now) };
}

/** What a nested call keeps back so its error reaches the caller before the caller gives up. */
export const DEADLINE_MARGIN_MS = 250;

const deadlines = new AsyncLocalStorage<{ at: number }>();

/**
 * Reads the caller's remaining time from REQUEST_TIMEOUT_HEADER and keeps it for everything the
 * request does, including work it starts in the background (a mission turn), so peer calls made
 * on its behalf give up before the caller stops waiting and never complete unseen.
 */
export function installDeadline(app: FastifyInstance, clockSkewAllowanceMs = 0): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const ms = millis(request.headers[REQUEST_TIMEOUT_HEADER], 9);
    if (ms === null) return done();
    const now = Date.now();
    // Only an internal caller's word counts: at the edge anyone may send the header (refusing
    // themselves a 504 that reads as a fault in the gateway's figures).
    const internal = request.headers[INTERNAL_TOKEN_HEADER] !== undefined;
    const sentAt = internal ? millis(request.headers[REQUEST_SENT_AT_HEADER], 15) : null;
    const givenUpAt = sentAt === null ? Number.POSITIVE_INFINITY : sentAt + ms + clockSkewAllowanceMs;
    if (givenUpAt <= now)
      return done(
        upstreamTimeout(`The caller stopped waiting ${now - sentAt! - ms} ms before this request was read`),
      );
    deadlines.run({ at: Math.min(now + ms, givenUpAt) }, done);
  });
}

/** A header of whole milliseconds (at most `digits` digits), or null. */
function millis(raw: string | string[] | undefined, digits: number): number | null {
  return typeof raw === 'string' && raw.length <= digits && /^\d+$/.test(raw) ? Number(raw) : null;
}

/** Milliseconds left before the current request's caller gives up; undefined without a deadline. */
export function remainingBudgetMs(): number | undefined {
  const deadline = deadlines.getStore();
  return deadline ? deadline.at - Date.now() : undefined;
}

/** The time a nested call may take: its own limit, cut to what the caller has left minus the margin. */
export function nestedTimeoutMs(ownLimitMs: number): number {
  const left = remainingBudgetMs();
  if (left === undefined) return ownLimitMs;
  return Math.max(0, Math.min(ownLimitMs, left - DEADLINE_MARGIN_MS));
}

/** Runs `fn` free of the request's deadline: work that may rightly outlast it (a streamed turn). */
export const withoutDeadline = <T>(fn: () => T): T => deadlines.exit(fn);
