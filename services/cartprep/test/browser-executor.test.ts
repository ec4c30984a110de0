// CARTPREP_EXECUTOR=browser against the demo merchant in one real Chromium: a cart on each
// product layout read back from the cart page, and every failure code from the page that
// provokes it, with its evidence in the job and in the gateway's `failed` callback.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_PATHS, type DemoShop, startDemoShop } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCartprep } from './cartprep-harness.ts';

let shop: DemoShop;
let cartprep: Awaited<ReturnType<typeof buildCartprep>>;
let dir: string;
let seq = 0;

beforeAll(async () => {
  shop = await startDemoShop();
  dir = mkdtempSync(join(tmpdir(), 'cartprep-evidence-'));
  cartprep = await buildCartprep({
    CARTPREP_EXECUTOR: 'browser',
    ALLOW_PRIVATE_MERCHANT_HOSTS: shop.host,
    CARTPREP_JOB_TIMEOUT_SECONDS: '15',
    CARTPREP_MAX_ATTEMPTS: '1',
    ARTIFACT_LOCAL_DIR: dir,
  });
});

afterAll(async () => {
  await cartprep?.close();
  await shop?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(path: string, size: string | null, quantity: number) {
  const jobId = `cpj_browser${String(++seq).padStart(4, '0')}`;
  const created = await cartprep.create({
    jobId,
    householdId: 'h_home',
    requestId: `pr_${seq}`,
    url: `${shop.url}${path}`,
    size,
    quantity,
  });
  expect(created.statusCode).toBe(201);
  const done = await cartprep.process(jobId);
  expect(done.statusCode).toBe(200);
  await cartprep.app.ctx.callbacks.outbox.drain();
  return { job: done.json(), callback: cartprep.gateway.calls.find((c) => c.url.includes(`/pr_${seq}/`)) };
}

describe('browser cart preparation on the demo shop', () => {
  it('fills a cart on layout A (cookie banner, size select, quantity field) and reads it back', async () => {
    const { job, callback } = await run(DEMO_PATHS.layoutA, 'M', 2);
    expect(job).toMatchObject({ status: 'SUCCEEDED', errorCode: null, evidence: null });
    expect(job.cart).toEqual({
      items: [{ title: 'Classic Tee', size: 'M', quantity: 2, unitPrice: 19.9 }],
      subtotal: 39.8,
      currency: 'EUR',
      merchantDomain: '127.0.0.1',
      checkoutUrl: `${shop.url}/checkout`,
    });
    expect(callback?.url).toBe(`/api/v1/households/h_home/requests/pr_${seq}/cart-ready`);
    expect(callback?.body).toEqual({ jobId: job.jobId, cart: job.cart });
    expect(shop.requests).not.toContain('GET /checkout');
  });

  it('fills a cart on layout B (size radios, quantity list, add to bag without a page load)', async () => {
    const { job } = await run(DEMO_PATHS.layoutB, 'L', 3);
    expect(job.status).toBe('SUCCEEDED');
    expect(job.cart).toMatchObject({
      items: [{ title: 'Linen Shirt', size: 'L', quantity: 3, unitPrice: 49 }],
      subtotal: 147,
      currency: 'EUR',
    });
  });

  const failures = [
    ['BLOCKED_BOT_DETECTED', DEMO_PATHS.botChallenge, 'M', /bot check/],
    ['SIZE_UNAVAILABLE', DEMO_PATHS.layoutA, 'L', /^Size L is sold out$/],
    ['POPUP_OVERLAY_UNRESOLVED', DEMO_PATHS.modal, 'M', /overlay covers the page/],
    ['LOGIN_REQUIRED', DEMO_PATHS.loginWall, 'M', /sign in/],
    ['UNKNOWN_DOM', DEMO_PATHS.noProduct, 'M', /No "Add to cart" button/],
    ['DOMAIN_NOT_ALLOWED', DEMO_PATHS.offSite, 'M', /refused localhost/],
    ['SAFETY_VIOLATION', DEMO_PATHS.paymentTrap, 'M', /payment form/],
    ['INTERNAL_ERROR', DEMO_PATHS.broken, 'M', /HTTP 500/],
  ] as const;

  it.each(failures)(
    '%s from its page, with evidence in the job and the failed callback',
    async (code, path, size, reason) => {
      const { job, callback } = await run(path, size, 1);
      expect(job).toMatchObject({ status: 'FAILED', errorCode: code, cart: null });
      expect(job.evidence.reason).toMatch(reason);
      expect(job.evidence.finalUrl).toMatch(/^http:\/\/(127\.0\.0\.1|localhost):\d+\//);
      expect(job.evidence.screenshotRef).toBe(
        `local://households/h_home/cartprep/${job.jobId}/attempt-1.png`,
      );
      expect(callback?.url).toBe(`/api/v1/households/h_home/requests/pr_${seq}/failed`);
      expect(callback?.body).toEqual({
        jobId: job.jobId,
        errorCode: code,
        message: job.evidence.reason,
        evidence: job.evidence,
      });
    },
  );

  it('fails a cart that reads back another quantity than asked', async () => {
    const { job } = await run(DEMO_PATHS.shortCart, 'M', 2);
    expect(job).toMatchObject({ status: 'FAILED', errorCode: 'UNKNOWN_DOM' });
    expect(job.evidence.reason).toBe(
      'The cart does not match the request: the cart holds 1 of the item, the request is for 2',
    );
  });

  it('TIMEOUT when the page does not answer before the deadline', async () => {
    const { job, callback } = await run(DEMO_PATHS.slow, 'M', 1);
    expect(job).toMatchObject({ status: 'FAILED', errorCode: 'TIMEOUT' });
    expect(callback?.body).toMatchObject({ errorCode: 'TIMEOUT' });
  }, 60_000);
});
