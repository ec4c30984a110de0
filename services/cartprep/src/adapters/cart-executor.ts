import type { Cart, CartprepEvidence, CartprepFailureCode } from '@hs/contracts';
import type { StoredJob } from '../domain/job-machine.ts';

export type CartResult = { ok: true; cart: Cart };
export type CartFailure = {
  ok: false;
  errorCode: CartprepFailureCode;
  message: string;
  evidence?: CartprepEvidence;
};

/**
 * Prepares a cart on a merchant site. `simulated` is deterministic (adapters/simulated-executor.ts);
 * `browser` drives a real Chromium (adapters/browser-executor/). An executor answers a CartFailure for what the site did
 * (size out of stock, login wall, ...) and throws only for its own faults (retried).
 * It must stop when `signal` aborts (the job's timeout).
 */
export interface CartExecutor {
  readonly name: string;
  prepare(job: StoredJob, signal: AbortSignal): Promise<CartResult | CartFailure>;
}
