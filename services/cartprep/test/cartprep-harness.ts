import { createStore, type Store } from '@hs/store';
import { receiptFor, startFakePeer } from '@hs/testing';
import type { CartExecutor } from '../src/adapters/cart-executor.ts';
import { buildApp, loadCartprepConfig } from '../src/index.ts';

/** A stand-in gateway on a loopback port that records buy-flow callbacks and answers `status`. */
export async function startFakeGateway() {
  const state = { status: 200 };
  const peer = await startFakePeer((call) => ({
    status: state.status,
    body: state.status < 400 ? receiptFor(call) : { error: 'CONFLICT', message: 'nope' },
  }));
  return { ...peer, state };
}

export const CARTPREP_TOKEN = 'test-cartprep-token';

export async function buildCartprep(
  env: Record<string, string> = {},
  store: Store = createStore({ backend: 'inmemory' }),
  executor?: CartExecutor,
  /** The worker loop and the callback outbox running as in production (off: tests drive them). */
  background = false,
) {
  const gateway = await startFakeGateway();
  // The audit ledger accepts every entry; `audit.calls` holds what cart-prep reported.
  const audit = await startFakePeer((call) => ({ status: 201, body: receiptFor(call) }));
  const config = loadCartprepConfig({
    APP_ENV: 'test',
    GATEWAY_BASE_URL: gateway.url,
    ARTIFACTS_AUDIT_BASE_URL: audit.url,
    CARTPREP_INTERNAL_TOKEN: CARTPREP_TOKEN,
    BUYFLOW_INTERNAL_TOKEN: 'test-buyflow-token',
    ...env,
  });
  const app = await buildApp({ config, store, background, ...(executor ? { executor } : {}) });
  await app.ready();
  const headers = { 'x-internal-token': CARTPREP_TOKEN };
  const create = (body: object) =>
    app.inject({ method: 'POST', url: '/api/v1/cartprep/jobs', headers, payload: body });
  const process = (jobId: string) =>
    app.inject({ method: 'POST', url: `/api/v1/cartprep/jobs/${jobId}/process`, headers });
  const get = (jobId: string) =>
    app.inject({ method: 'GET', url: `/api/v1/cartprep/jobs/${jobId}`, headers });
  return {
    app,
    store,
    gateway,
    audit,
    headers,
    create,
    process,
    get,
    async close() {
      await app.close();
      await gateway.close();
      await audit.close();
    },
  };
}

export const job = (over: object = {}) => ({
  jobId: 'cpj_testjob0001',
  householdId: 'h_home',
  requestId: 'pr_one',
  url: 'https://shop.example.com/p/rain-jacket',
  size: 'M',
  quantity: 2,
  title: 'Rain jacket',
  unitPrice: 40,
  currency: 'EUR',
  ...over,
});
