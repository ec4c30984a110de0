// A local session nobody uses for BROWSER_IDLE_TIMEOUT_SECONDS has its browser context closed and
// ends TERMINATED, with its recording, as if terminated.
import { createStore } from '@hs/store';
import {
  createMemoryBlobStorage,
  type DemoShop,
  type FakePeer,
  startDemoShop,
  startFakePeer,
} from '@hs/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadBrowserBridgeConfig } from '../src/config.ts';
import { internal, ORCH_TOKEN, TOKEN } from './harness.ts';

let shop: DemoShop;
let artifacts: FakePeer;
let app: Awaited<ReturnType<typeof buildApp>>;
const storage = createMemoryBlobStorage();

beforeAll(async () => {
  shop = await startDemoShop();
  artifacts = await startFakePeer(() => ({ status: 201, body: {} }));
  const config = loadBrowserBridgeConfig({
    APP_ENV: 'test',
    BROWSER_PROVIDER: 'local',
    BROWSER_IDLE_TIMEOUT_SECONDS: '1',
    BROWSER_BRIDGE_INTERNAL_TOKEN: TOKEN,
    ORCHESTRATOR_INTERNAL_TOKEN: ORCH_TOKEN,
    ARTIFACTS_AUDIT_BASE_URL: artifacts.url,
    ALLOW_PRIVATE_MERCHANT_HOSTS: shop.host,
  });
  app = await buildApp({ config, store: createStore({ backend: 'inmemory' }), storage });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await artifacts?.close();
  await shop?.close();
});

it('ends an idle session TERMINATED and writes its recording', async () => {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/sessions',
    headers: internal,
    payload: { householdId: 'h_home', missionId: 'msn_idle', startUrl: `${shop.url}/` },
  });
  expect(created.statusCode).toBe(201);
  const id = created.json().sessionId;
  const read = async () =>
    (await app.inject({ method: 'GET', url: `/api/v1/sessions/${id}`, headers: internal })).json();
  await expect.poll(async () => (await read()).status, { timeout: 15_000, interval: 200 }).toBe('TERMINATED');
  expect((await read()).actionLog.at(-1)).toMatchObject({ actor: 'system', type: 'TERMINATE' });
  await expect.poll(() => artifacts.calls.length, { timeout: 10_000 }).toBe(1);
  expect(storage.objects.has(`households/h_home/missions/msn_idle/recordings/${id}.json`)).toBe(true);
});
