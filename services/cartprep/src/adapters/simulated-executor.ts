import { createHash } from 'node:crypto';
import { CartprepFailureCode, roundToCurrency } from '@hs/contracts';
import type { StoredJob } from '../domain/job-machine.ts';
import type { CartExecutor, CartFailure, CartResult } from './cart-executor.ts';

export const SIMULATED_FAILURE_MESSAGES: Record<CartprepFailureCode, string> = {
  BLOCKED_BOT_DETECTED: 'The site detected automation (simulated)',
  SIZE_UNAVAILABLE: 'The requested size is out of stock (simulated)',
  POPUP_OVERLAY_UNRESOLVED: 'A cookie or modal overlay blocked the page (simulated)',
  LOGIN_REQUIRED: 'The site requires signing in (simulated)',
  UNKNOWN_DOM: 'The page structure was not recognised (simulated)',
  TIMEOUT: 'The page or an action timed out (simulated)',
  DOMAIN_NOT_ALLOWED: 'The URL is not in the allowlist (simulated)',
  SAFETY_VIOLATION: 'The action would violate the safety policy (simulated)',
  INTERNAL_ERROR: 'Cart preparation failed inside the service (simulated)',
};

/** Longest delay `simulateDelayMs` may ask for. */
export const MAX_SIMULATED_DELAY_MS = 30_000;

/**
 * A deterministic stand-in for a browser, so the whole flow runs on a laptop. In dev and test it
 * is driven by query parameters of the job's URL (they are ignored by real merchants):
 * - `simulate=<CODE>`: the job fails with that errorCode (any of the nine in spec part 7);
 * - `simulateDelayMs=<n>`: the job takes n ms (at most 30000) before finishing.
 * In staging and production (`honourUrlParams` false) they are ignored: a member could otherwise
 * hold the shared workers 30 s per job and make every other household's cart wait.
 * Otherwise it succeeds with one line item: the shopper's title, size, quantity and unit price
 * (or values derived from the URL's hash when the job has none), subtotal = unit × quantity,
 * merchantDomain = the URL's host, checkoutUrl = https://<host>/checkout?cart=<hash>.
 */
export function createSimulatedExecutor(options: { honourUrlParams: boolean }): CartExecutor {
  return {
    name: 'simulated',
    async prepare(job, signal) {
      const url = new URL(job.url);
      if (!options.honourUrlParams) return simulatedCart(job, url);
      const delay = Math.min(
        MAX_SIMULATED_DELAY_MS,
        Math.max(0, Number(url.searchParams.get('simulateDelayMs')) || 0),
      );
      if (delay > 0) await sleep(delay, signal);
      if (signal.aborted) return failure('TIMEOUT', 'Cart preparation timed out', job.url);
      const forced = CartprepFailureCode.safeParse(url.searchParams.get('simulate')?.toUpperCase());
      if (forced.success) return failure(forced.data, SIMULATED_FAILURE_MESSAGES[forced.data], job.url);
      return simulatedCart(job, url);
    },
  };
}

function simulatedCart(job: StoredJob, url: URL): CartResult {
  const digest = createHash('sha256').update(job.url).digest();
  const unitPrice = job.hint.unitPrice ?? 10 + (digest.readUInt16BE(0) % 19_000) / 100;
  const title =
    job.hint.title ??
    (url.pathname.split('/').filter(Boolean).at(-1)?.replace(/[-_]+/g, ' ') || url.hostname);
  const host = url.hostname.toLowerCase();
  return {
    ok: true,
    cart: {
      items: [{ title, size: job.size, quantity: job.quantity, unitPrice }],
      subtotal: roundToCurrency(unitPrice * job.quantity, job.hint.currency ?? 'EUR'),
      currency: job.hint.currency ?? 'EUR',
      merchantDomain: host,
      checkoutUrl: `https://${host}/checkout?cart=${digest.subarray(0, 8).toString('hex')}`,
    },
  };
}

/** The simulated page is the job's URL itself; there is no screenshot to keep. */
const failure = (errorCode: CartprepFailureCode, message: string, finalUrl: string): CartFailure => ({
  ok: false,
  errorCode,
  message,
  evidence: { finalUrl, screenshotRef: null, reason: message },
});

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
