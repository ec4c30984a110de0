import { chromiumLaunchedHere } from '@hs/browser';
// Faults of the browser itself and of a page that stops answering, in real Chromium:
// - a browser that dies under a job (killed mid-page) is our infrastructure, not the shop: the job
//   goes back to the queue and runs again in a fresh browser, failing only once its attempts are
//   used up; a shop's own answer on the retry is final;
// - a job that ends TIMEOUT at its deadline keeps a screenshot when the page still gives one, and
//   says so when it does not (a hung page), without waiting on it.

import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_PATHS, type DemoShop, startDemoShop } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCartprep } from './cartprep-harness.ts';

const killOwnChromium = () => {
  for (const pid of chromiumLaunchedHere())
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
};

/**
 * A shop in front of the demo shop: the first `crashes` requests of `/crash/...` kill the browser
 * that asked (and are never answered); every other request is the demo shop's, path `/crash`
 * taken off. `/hung` is a page whose script never returns; `/stalled` a page that waits for a
 * script the server never sends.
 */
async function startFaultyShop(shop: DemoShop) {
  const state = { crashes: 0, seen: 0 };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path.startsWith('/crash/') && state.seen < state.crashes) {
      state.seen++;
      killOwnChromium();
      return;
    }
    if (path === '/hung')
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<h1>Hung</h1><button>Add to cart</button><script>for(;;){}</script>');
    if (path === '/stalled')
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<h1>Stalled product page</h1><script src="/never.js"></script><button>Add to cart</button>');
    if (path === '/never.js') return; // never answered
    const upstream = request(
      `${shop.url}${path.replace(/^\/crash/, '')}`,
      { method: req.method, headers: { ...req.headers, host: shop.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    state,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

let shop: DemoShop;
let faulty: Awaited<ReturnType<typeof startFaultyShop>>;
let dir: string;

beforeAll(async () => {
  shop = await startDemoShop();
  faulty = await startFaultyShop(shop);
  dir = mkdtempSync(join(tmpdir(), 'cartprep-faults-'));
});

afterAll(async () => {
  faulty?.close();
  await shop?.close();
  rmSync(dir, { recursive: true, force: true });
});

let seq = 0;
async function withCartprep<T>(
  env: Record<string, string>,
  body: (t: Awaited<ReturnType<typeof buildCartprep>>) => Promise<T>,
): Promise<T> {
  const t = await buildCartprep({
    CARTPREP_EXECUTOR: 'browser',
    ALLOW_PRIVATE_MERCHANT_HOSTS: `${faulty.host},${shop.host}`,
    ARTIFACT_LOCAL_DIR: dir,
    ...env,
  });
  try {
    return await body(t);
  } finally {
    await t.close();
  }
}

async function submit(t: Awaited<ReturnType<typeof buildCartprep>>, url: string, size: string | null = 'M') {
  const jobId = `cpj_faults${String(++seq).padStart(4, '0')}`;
  const created = await t.create({
    jobId,
    householdId: 'h_home',
    requestId: `pr_f${seq}`,
    url,
    size,
    quantity: 1,
  });
  expect(created.statusCode).toBe(201);
  return jobId;
}

describe('a browser that dies under a cart-prep job', () => {
  it('runs the job again in a fresh browser, and the retry fills the cart', async () => {
    faulty.state.crashes = 1;
    faulty.state.seen = 0;
    await withCartprep({ CARTPREP_MAX_ATTEMPTS: '3', CARTPREP_JOB_TIMEOUT_SECONDS: '20' }, async (t) => {
      const jobId = await submit(t, `${faulty.url}/crash${DEMO_PATHS.layoutA}`);
      const first = (await t.process(jobId)).json();
      // Back in the queue, the attempt counted, nothing reported to the gateway.
      expect(first).toMatchObject({ status: 'QUEUED', attempts: 1, errorCode: null });
      await t.app.ctx.callbacks.outbox.drain();
      expect(t.gateway.calls).toEqual([]);

      const second = (await t.process(jobId)).json();
      expect(second).toMatchObject({ status: 'SUCCEEDED', attempts: 2, errorCode: null });
      expect(second.cart.items).toEqual([{ title: 'Classic Tee', size: 'M', quantity: 1, unitPrice: 19.9 }]);
    });
  }, 60_000);

  it('fails INTERNAL_ERROR only once the attempts are used up', async () => {
    faulty.state.crashes = 2;
    faulty.state.seen = 0;
    await withCartprep({ CARTPREP_MAX_ATTEMPTS: '2', CARTPREP_JOB_TIMEOUT_SECONDS: '20' }, async (t) => {
      const jobId = await submit(t, `${faulty.url}/crash${DEMO_PATHS.layoutA}`);
      expect((await t.process(jobId)).json()).toMatchObject({ status: 'QUEUED', attempts: 1 });
      expect((await t.process(jobId)).json()).toMatchObject({
        status: 'FAILED',
        attempts: 2,
        errorCode: 'INTERNAL_ERROR',
      });
    });
  }, 60_000);

  it("takes the shop's own answer on the retry as final (not retried)", async () => {
    faulty.state.crashes = 1;
    faulty.state.seen = 0;
    await withCartprep({ CARTPREP_MAX_ATTEMPTS: '3', CARTPREP_JOB_TIMEOUT_SECONDS: '20' }, async (t) => {
      // Size L of the tee is sold out: SIZE_UNAVAILABLE, from the shop.
      const jobId = await submit(t, `${faulty.url}/crash${DEMO_PATHS.layoutA}`, 'L');
      expect((await t.process(jobId)).json()).toMatchObject({ status: 'QUEUED', attempts: 1 });
      const second = (await t.process(jobId)).json();
      expect(second).toMatchObject({ status: 'FAILED', attempts: 2, errorCode: 'SIZE_UNAVAILABLE' });
    });
  }, 60_000);
});

describe('a page that stops answering before the deadline', () => {
  // The deadline leaves a cold Chromium on a loaded machine the time to start and open the page.
  it('keeps a screenshot of a page still loading when the deadline passes', async () => {
    await withCartprep({ CARTPREP_MAX_ATTEMPTS: '3', CARTPREP_JOB_TIMEOUT_SECONDS: '8' }, async (t) => {
      const jobId = await submit(t, `${faulty.url}/stalled`);
      const started = Date.now();
      const done = (await t.process(jobId)).json();
      expect(Date.now() - started).toBeLessThan(8000 + 3000);
      expect(done).toMatchObject({ status: 'FAILED', errorCode: 'TIMEOUT', attempts: 1 });
      expect(done.evidence).toEqual({
        finalUrl: `${faulty.url}/stalled`,
        screenshotRef: `local://households/h_home/cartprep/${jobId}/attempt-1.png`,
        reason: 'Cart preparation passed its deadline',
      });
    });
  }, 30_000);

  it('says no screenshot could be taken of a hung page, and does not wait on it', async () => {
    await withCartprep({ CARTPREP_MAX_ATTEMPTS: '3', CARTPREP_JOB_TIMEOUT_SECONDS: '8' }, async (t) => {
      const jobId = await submit(t, `${faulty.url}/hung`);
      const started = Date.now();
      const done = (await t.process(jobId)).json();
      // The deadline, the bounded look (1 s) and the close; not the runner's grace given up on.
      expect(Date.now() - started).toBeLessThan(8000 + 3000);
      expect(done).toMatchObject({ status: 'FAILED', errorCode: 'TIMEOUT', attempts: 1 });
      // (the URL too may be unknown: a renderer stuck in the page's script never reported it)
      expect(done.evidence.screenshotRef).toBeNull();
      expect(done.evidence.reason).toBe(
        'Cart preparation passed its deadline (no screenshot could be taken: the page did not give one within 1 s)',
      );
    });
  }, 30_000);
});
