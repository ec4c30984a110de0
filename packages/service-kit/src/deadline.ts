import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/**
 * How long the caller will still wait, in milliseconds, sent on every internal call. It is
 * relative (like gRPC's `grpc-timeout`) so clocks that disagree between hosts don't matter.
 */
export const REQUEST_TIMEOUT_HEADER = 'x-request-timeout-ms';

/** What a nested call keeps back so its error reaches the caller before the caller gives up. */
export const DEADLINE_MARGIN_MS = 250;

const deadlines = new AsyncLocalStorage<{ at: number }>();

/**
 * Reads the caller's remaining time from REQUEST_TIMEOUT_HEADER and keeps it for everything the
 * request does, including work it starts in the background (a mission turn), so peer calls made
 * on its behalf give up before the caller stops waiting and never complete unseen.
 */
export function installDeadline(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const raw = request.headers[REQUEST_TIMEOUT_HEADER];
    const ms = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : null;
    if (ms === null) return done();
    deadlines.run({ at: Date.now() + ms }, done);
  });
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
