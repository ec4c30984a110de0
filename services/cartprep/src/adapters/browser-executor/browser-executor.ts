// CARTPREP_EXECUTOR=browser: one cart preparation in a real Chromium (packages/browser: a fresh
// browser context per job, every request through the address guard). Named steps: open the
// product page, check what it is, clear overlays, choose size and quantity, add to cart, open
// the cart, read it back and compare it with what was asked. It never enters payment details
// and never submits an order. Every failure keeps evidence: the final URL, a screenshot and a
// one-line reason.

import { BrowserCapacityError, type BrowserPool } from '@hs/browser';
import { type CartprepEvidence, type CartprepFailureCode, cartMismatch } from '@hs/contracts';
import type { Page } from 'playwright-core';
import type { StoredJob } from '../../domain/job-machine.ts';
import type { CartExecutor, CartFailure, CartResult } from '../cart-executor.ts';
import { openCart, readCart } from './cart-reader.ts';
import { CartStop, stop } from './cart-stop.ts';
import { checkCartPage, checkDestination, checkPage, hostOf } from './page-checks.ts';
import { assertNotCovered, chooseSize, dismissOverlays, findAddButton, setQuantity } from './product-form.ts';

export type BrowserExecutorDeps = {
  pool: BrowserPool;
  /** CARTPREP_ALLOWED_DOMAINS when enforced: other domains a merchant may hand over to. */
  allowHost: (host: string) => boolean;
  /** Stores an evidence screenshot; resolves to its reference (null when it could not be kept). */
  saveScreenshot: (job: StoredJob, png: Uint8Array) => Promise<string | null>;
  /** Longest wait for one page step, within the job's own deadline. */
  stepTimeoutMs?: number;
};

export function createBrowserExecutor(deps: BrowserExecutorDeps): CartExecutor {
  return {
    name: 'browser',
    async prepare(job, signal) {
      const sessionId = `${job.jobId}-${job.attempts}`;
      // A full pool or a browser that did not answer is our own fault, not the merchant's doing:
      // thrown, so the job is retried (in a fresh browser).
      const opened = await openUnlessAborted(deps.pool, sessionId, signal);
      if (!opened) return deadlinePassed();
      const { page } = opened;
      const onAbort = () => void deps.pool.close(sessionId);
      signal.addEventListener('abort', onAbort, { once: true });
      page.setDefaultTimeout(deps.stepTimeoutMs ?? 15_000);
      try {
        return await run(page, job, deps);
      } catch (err) {
        return await failure(page, job, err, signal, deps);
      } finally {
        signal.removeEventListener('abort', onAbort);
        await deps.pool.close(sessionId);
      }
    },
  };
}

/**
 * The job's browser session, or null when the job's deadline passed first: a browser slow to
 * start or frozen must not hold the job past it. A session that opens after that is closed.
 */
async function openUnlessAborted(pool: BrowserPool, sessionId: string, signal: AbortSignal) {
  if (signal.aborted) return null;
  const opening = pool.open(sessionId);
  let onAbort = () => {};
  const aborted = new Promise<null>((resolve) => {
    onAbort = () => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const first = await Promise.race([opening, aborted]);
    if (!first)
      opening.then(
        () => pool.close(sessionId),
        () => {},
      );
    return first;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

const DEADLINE_REASON = 'Cart preparation passed its deadline';

/** A job that ended before it had a page: no URL and no screenshot to keep. */
function deadlinePassed(): CartFailure {
  const evidence: CartprepEvidence = { finalUrl: null, screenshotRef: null, reason: DEADLINE_REASON };
  return { ok: false, errorCode: 'TIMEOUT', message: DEADLINE_REASON, evidence };
}

async function run(page: Page, job: StoredJob, deps: BrowserExecutorDeps): Promise<CartResult> {
  const merchantHost = hostOf(job.url);
  const landed = await page.goto(job.url, { waitUntil: 'domcontentloaded' });
  checkDestination(page, landed, merchantHost, deps.allowHost);
  await checkPage(page, landed);
  await dismissOverlays(page);
  const add = await findAddButton(page);
  if (job.size) await chooseSize(page, job.size);
  await setQuantity(page, job.quantity);
  await assertNotCovered(add);
  // Adding either loads a page (a form post) or sends a request from the page (fetch/XHR).
  const settled = Promise.race([
    page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: 8000 }),
    page
      .waitForResponse((r) => r.request().method() !== 'GET' && r.request().resourceType() !== 'document', {
        timeout: 8000,
      })
      .then(() => null),
  ]).catch(() => null);
  const before = page.url();
  await add.click();
  const navigation = await settled;
  if (navigation || page.url() !== before) {
    checkDestination(page, navigation, merchantHost, deps.allowHost);
    await checkPage(page, navigation);
  }
  const cartPage = await openCart(page);
  checkDestination(page, cartPage, merchantHost, deps.allowHost);
  // A payment form or a login wall shown on the cart page stops the job before anything is read
  // (page-checks.ts checkCartPage: what is hidden there, or the cart's path, does not).
  await checkCartPage(page, cartPage);
  const cart = await readCart(page, merchantHost);
  const mismatch = cartMismatch(cart, { size: job.size, quantity: job.quantity });
  if (mismatch) stop('UNKNOWN_DOM', `The cart does not match the request: ${mismatch}`);
  return { ok: true, cart };
}

async function failure(
  page: Page,
  job: StoredJob,
  err: unknown,
  signal: AbortSignal,
  deps: BrowserExecutorDeps,
): Promise<CartFailure> {
  if (err instanceof BrowserCapacityError) throw err;
  const { code, reason } = classify(err, signal);
  const png = signal.aborted ? null : await page.screenshot({ timeout: 5000 }).catch(() => null);
  const evidence: CartprepEvidence = {
    finalUrl: page.url() === 'about:blank' ? null : page.url(),
    screenshotRef: png ? await deps.saveScreenshot(job, png).catch(() => null) : null,
    reason: reason.slice(0, 500),
  };
  return { ok: false, errorCode: code, message: evidence.reason, evidence };
}

function classify(err: unknown, signal: AbortSignal): { code: CartprepFailureCode; reason: string } {
  if (err instanceof CartStop) return { code: err.code, reason: err.message };
  if (signal.aborted) return { code: 'TIMEOUT', reason: DEADLINE_REASON };
  const name = (err as Error)?.name;
  if (name === 'TimeoutError') return { code: 'TIMEOUT', reason: `A page step timed out: ${firstLine(err)}` };
  return { code: 'INTERNAL_ERROR', reason: `Cart preparation failed: ${firstLine(err)}` };
}

const firstLine = (err: unknown) =>
  String((err as Error)?.message ?? err)
    .split('\n')[0]!
    .slice(0, 300);
