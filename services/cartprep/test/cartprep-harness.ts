import { createStore, type Store } from '@hs/store';
import { startFakePeer } from '@hs/testing';
import { buildApp, loadCartprepConfig } from '../src/index.ts';

/** A stand-in gateway on a loopback port that records buy-flow callbacks and answers `status`. */
export async function startFakeGateway() {
  const state = { status: 200 };
  const peer = await startFakePeer(() => ({
    status: state.status,
    body: state.status < 400 ? {} : { error: 'CONFLICT', message: 'nope' },
  }));
  return { ...peer, state };
}

export const CARTPREP_TOKEN = 'test-cartprep-token';

export async function buildCartprep(
  env: Record<string, string> = {},
  store: Store = createStore({ backend: 'inmemory' }),
) {
  const gateway = await startFakeGateway();
  const config = loadCartprepConfig({
    APP_ENV: 'test',
    GATEWAY_BASE_URL: gateway.url,
    CARTPREP_INTERNAL_TOKEN: CARTPREP_TOKEN,
    BUYFLOW_INTERNAL_TOKEN: 'test-buyflow-token',
    ...env,
  });
  const app = await buildApp({ config, store, background: false });
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
    headers,
    create,
    process,
    get,
    async close() {
      await app.close();
      await gateway.close();
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
