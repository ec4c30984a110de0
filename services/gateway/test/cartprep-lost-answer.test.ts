// Starting a purchase whose dispatch answer is lost on the way back (cart-prep made the job, the
// connection was cut): the gateway asks once more with the same jobId, cart-prep answers with
// the job it has, and the purchase goes on (201) instead of being put back to APPROVED while the
// job runs anyway (an orphan cart whose callbacks are refused).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recoverOwedAudits } from '../src/flows/owed-audit.ts';
import { recoverDispatches } from '../src/flows/start-purchase-intent.ts';
import { buildBuyflowGateway, queuedJob, sampleCart } from './buyflow-harness.ts';

/** A cart-prep that makes every job it is sent, but cuts the connection of the first answer. */
let server: Server;
let url = '';
const received: string[] = [];
let firstAnswer: 'cut' | 'unsure-503' = 'cut';
beforeAll(async () => {
  server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    received.push(body.jobId);
    if (received.length === 1) {
      if (firstAnswer === 'cut') return req.socket.destroy();
      // A store whose write timed out: the job may well be saved.
      res.writeHead(503, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          error: 'SERVICE_UNAVAILABLE',
          message:
            'Storage did not answer in time: the change may or may not have been saved; try again later',
        }),
      );
    }
    res.writeHead(received.filter((j) => j === body.jobId).length > 1 ? 200 : 201, {
      'content-type': 'application/json',
    });
    res.end(JSON.stringify(queuedJob(body)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('a cart-prep dispatch whose answer was lost', () => {
  it.each(['cut', 'unsure-503'] as const)(
    'is asked once more with the same job, and the purchase goes on (%s)',
    async (answer) => {
      firstAnswer = answer;
      received.length = 0;
      const t = await buildBuyflowGateway({ env: { CARTPREP_BASE_URL: url } });
      try {
        const pr = (await t.post('/requests', t.adult, t.item)).json();
        await t.post(`/requests/${pr.requestId}/approve`, t.guardian);
        const intent = await t.post(`/requests/${pr.requestId}/purchase-intents`, t.adult);
        expect(intent.statusCode).toBe(201);
        expect(received).toEqual([intent.json().cartprepJobId, intent.json().cartprepJobId]);
        const read = await t.app.inject({
          method: 'GET',
          url: `${t.h}/requests/${pr.requestId}`,
          headers: t.adult.auth,
        });
        expect(read.json()).toMatchObject({ status: 'CART_PREP', lastFailure: null });
      } finally {
        await t.close();
      }
    },
  );
});

describe('a dispatch that fails after the job got through another way', () => {
  it.each([
    ['the dispatch sweep sent it', 'CART_PREP'],
    ["cart-prep's callback came first", 'CART_READY'],
  ] as const)('answers the intent (201), recorded once, when %s', async (way, status) => {
    // The route's calls (its request id) fail after a while; the dispatch sweep's go through.
    let routeRequestId: string | undefined;
    const jobs = new Set<string>();
    const flaky = createServer(async (req, res) => {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const body = JSON.parse(raw);
      const id = String(req.headers['x-request-id']);
      routeRequestId ??= id;
      if (id === routeRequestId) {
        await new Promise((r) => setTimeout(r, 400));
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'UPSTREAM_ERROR', message: 'busy' }));
        return;
      }
      jobs.add(body.jobId);
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify(queuedJob(body)));
    });
    await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
    const t = await buildBuyflowGateway({
      env: { CARTPREP_BASE_URL: `http://127.0.0.1:${(flaky.address() as AddressInfo).port}` },
    });
    try {
      const pr = (await t.post('/requests', t.adult, t.item)).json();
      await t.post(`/requests/${pr.requestId}/approve`, t.guardian);
      const route = t.post(`/requests/${pr.requestId}/purchase-intents`, t.adult);
      for (let i = 0; i < 100; i++) {
        if ((await t.app.ctx.buyflow.requests.get(pr.householdId, pr.requestId))?.dispatchPending) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      if (way.startsWith('the dispatch sweep')) {
        vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 11_000 });
        expect(await recoverDispatches(t.app.ctx)).toBe(1);
        vi.useRealTimers();
      } else {
        const stored = await t.app.ctx.buyflow.requests.get(pr.householdId, pr.requestId);
        const ready = await t.post(`/requests/${pr.requestId}/cart-ready`, t.internal(), {
          jobId: stored!.cartprepJobId,
          cart: sampleCart(),
        });
        expect(ready.statusCode).toBe(200);
      }
      const intent = await route;
      expect(intent.statusCode).toBe(201);
      if (status === 'CART_PREP') expect(jobs).toEqual(new Set([intent.json().cartprepJobId]));
      const read = await t.app.inject({
        method: 'GET',
        url: `${t.h}/requests/${pr.requestId}`,
        headers: t.adult.auth,
      });
      expect(read.json()).toMatchObject({ status, lastFailure: null });
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 11_000 });
      await recoverOwedAudits(t.app.ctx);
      vi.useRealTimers();
      const intents = (await t.gates()).filter(
        (g) => g.action === 'CREATE_PURCHASE_INTENT' && g.targetId === pr.requestId,
      );
      expect(intents.map((g) => g.detail.outcome)).toEqual(['ALLOWED']);
    } finally {
      vi.useRealTimers();
      await t.close();
      await new Promise<void>((r) => flaky.close(() => r()));
    }
  });
});

describe('a cart-prep that hangs', () => {
  it('is asked once more briefly after the first wait, so the member waits one timeout and a bit, not two', async () => {
    const asks: Array<{ jobId: string; timeoutMs: number }> = [];
    const hung = createServer(async (req) => {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      asks.push({ jobId: JSON.parse(raw).jobId, timeoutMs: Number(req.headers['x-request-timeout-ms']) });
      // Never answers.
    });
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    const t = await buildBuyflowGateway({
      env: {
        CARTPREP_BASE_URL: `http://127.0.0.1:${(hung.address() as AddressInfo).port}`,
        INTERNAL_API_TIMEOUT_SECONDS: '3',
      },
    });
    try {
      const pr = (await t.post('/requests', t.adult, t.item)).json();
      await t.post(`/requests/${pr.requestId}/approve`, t.guardian);
      const intent = await t.post(`/requests/${pr.requestId}/purchase-intents`, t.adult);
      expect(intent.statusCode).toBe(504);
      expect(intent.json().error).toBe('UPSTREAM_TIMEOUT');
      // The message names the first wait, not the recheck's 2 s.
      expect(intent.json().message).toContain('3000 ms');
      // The same job both times; the second with 2 s, not the whole 3 s again.
      expect(asks).toHaveLength(2);
      expect(asks[1]!.jobId).toBe(asks[0]!.jobId);
      expect(asks[0]!.timeoutMs).toBe(3000);
      expect(asks[1]!.timeoutMs).toBe(2000);
      const read = await t.app.inject({
        method: 'GET',
        url: `${t.h}/requests/${pr.requestId}`,
        headers: t.adult.auth,
      });
      expect(read.json()).toMatchObject({ status: 'APPROVED' });
    } finally {
      await t.close();
      hung.closeAllConnections();
      await new Promise<void>((r) => hung.close(() => r()));
    }
  }, 15_000);
});
