// CARTPREP_EXECUTOR=browser: one cart preparation in a real Chromium (packages/browser: a fresh
// browser context per job, every request through the address guard). Named steps: open the
// product page, check what it is, clear overlays, choose size and quantity, add to cart, open
// the cart, read it back and compare it with what was asked. It never enters payment details
// and never submits an order. Every failure keeps evidence: the final URL, a screenshot and a
// one-line reason.

import { BrowserCapacityError, type BrowserPool, pageIsGone } from '@hs/browser';
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
      const gone = watchBrowser(page);
      // At the deadline, a last look at the page (bounded: a hung page gives none), then the
      // session is closed. The job answers right after the look, without waiting for the step
      // still running on the page to give up: the runner waits only its grace for the answer.
      let lastLook: Promise<Uint8Array | null> | null = null;
      let deadlineReached = () => {};
      const deadline = new Promise<never>((_, reject) => {
        deadlineReached = () => reject(new Error(DEADLINE_REASON));
      });
      deadline.catch(() => {});
      const onAbort = () => {
        lastLook = boundedScreenshot(page, DEADLINE_SCREENSHOT_MS);
        void lastLook.finally(() => {
          deadlineReached();
          void deps.pool.close(sessionId);
        });
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      page.setDefaultTimeout(deps.stepTimeoutMs ?? 15_000);
      try {
        const running = run(page, job, deps);
        // Once the deadline has answered, what the abandoned steps still throw is nobody's business.
        running.catch(() => {});
        return await Promise.race([running, deadline]);
      } catch (err) {
        // The browser died under the job (crashed, killed, its page or context closed by nobody
        // here): our infrastructure, not the shop. Thrown, so the runner retries the job in a
        // fresh browser within CARTPREP_MAX_ATTEMPTS. The shop's own answers (CartStop) and the
        // job's deadline are never retried.
        if (!signal.aborted && !(err instanceof CartStop) && gone.happened())
          throw new BrowserLostError(gone.why(), err);
        return await failure(page, job, err, signal, deps, lastLook);
      } finally {
        signal.removeEventListener('abort', onAbort);
        gone.stop();
        await lastLook;
        await deps.pool.close(sessionId);
      }
    },
  };
}

/** The job's browser went away while the job ran: retried by the runner, never a shop failure. */
export class BrowserLostError extends Error {
  constructor(why: string, cause: unknown) {
    super(`The browser was lost during cart preparation (${why}): ${firstLine(cause)}`, { cause });
    this.name = 'BrowserLostError';
  }
}

/** Whether the page's browser crashed, was killed or had its page closed while the job ran. */
function watchBrowser(page: Page) {
  let why: string | null = null;
  const onCrash = () => {
    why ??= 'the page crashed';
  };
  const onClose = () => {
    why ??= 'the page was closed';
  };
  const onDisconnected = () => {
    why ??= 'the browser process ended';
  };
  const browser = page.context().browser();
  page.on('crash', onCrash);
  page.on('close', onClose);
  browser?.on('disconnected', onDisconnected);
  return {
    happened: () => why !== null || pageIsGone(page),
    why: () => why ?? (page.isClosed() ? 'the page was closed' : 'the browser process ended'),
    stop() {
      page.off('crash', onCrash);
      page.off('close', onClose);
      browser?.off('disconnected', onDisconnected);
    },
  };
}

/** Longest wait for the evidence screenshot of a page step that failed or timed out. */
export const SCREENSHOT_MS = 2_000;
/**
 * The same at the job's deadline: shorter, since the runner waits only its grace (2 s) for the
 * executor's answer after the abort.
 */
export const DEADLINE_SCREENSHOT_MS = 1_000;

/**
 * A screenshot, or null when the page does not give one within `ms` (a hung renderer, a closed
 * page). Bounded twice: playwright's own timeout, and a timer of ours in case that one does not fire.
 */
function boundedScreenshot(page: Page, ms: number): Promise<Uint8Array | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  const shot = page.isClosed()
    ? Promise.resolve(null)
    : page.screenshot({ timeout: ms }).then(
        (png) => png as Uint8Array,
        () => null,
      );
  // (a late screenshot, past our own timer, is dropped)
  return Promise.race([shot, late]).finally(() => clearTimeout(timer));
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
  lastLook: Promise<Uint8Array | null> | null,
): Promise<CartFailure> {
  if (err instanceof BrowserCapacityError) throw err;
  const { code, reason } = classify(err, signal);
  // At the deadline the look taken as it passed; otherwise one now. Neither waits long on a page
  // that stopped answering, and the evidence says when there is none.
  const bound = signal.aborted ? DEADLINE_SCREENSHOT_MS : SCREENSHOT_MS;
  const png = signal.aborted ? await (lastLook ?? null) : await boundedScreenshot(page, bound);
  const screenshotRef = png ? await deps.saveScreenshot(job, png).catch(() => null) : null;
  const note = png
    ? screenshotRef
      ? ''
      : ' (the screenshot could not be stored)'
    : ` (no screenshot could be taken: the page did not give one within ${bound / 1000} s)`;
  // A page closed at the deadline still tells the URL it was on.
  const finalUrl = page.url() === 'about:blank' ? null : page.url();
  const kept = `${reason.slice(0, 500 - note.length)}${note}`;
  const evidence: CartprepEvidence = { finalUrl, screenshotRef, reason: kept };
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
