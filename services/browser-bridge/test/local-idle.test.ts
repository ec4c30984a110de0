// A local session nobody uses for BROWSER_IDLE_TIMEOUT_SECONDS has its browser context closed and
// ends TERMINATED, with its recording, as if terminated; one a parent is watching stays open and
// keeps its place in the household's share.
import { createStore } from '@hs/store';
import {
  createMemoryBlobStorage,
  type DemoShop,
  type FakePeer,
  freePort,
  receiptFor,
  startDemoShop,
  startFakePeer,
} from '@hs/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadBrowserBridgeConfig } from '../src/config.ts';
import { asMember, fakeMembers, internal, ORCH_TOKEN, TOKEN } from './harness.ts';

let shop: DemoShop;
let artifacts: FakePeer;
let app: Awaited<ReturnType<typeof buildApp>>;
const storage = createMemoryBlobStorage();

beforeAll(async () => {
  shop = await startDemoShop();
  artifacts = await startFakePeer((call) => ({ status: 201, body: receiptFor(call) }));
  const port = await freePort();
  const config = loadBrowserBridgeConfig({
    APP_ENV: 'test',
    BROWSER_PROVIDER: 'local',
    // 2 s, not 1: between the session's creation and the watcher's first frame request the idle
    // clock runs (the page load included), and a loaded machine can take a second there.
    BROWSER_IDLE_TIMEOUT_SECONDS: '2',
    BROWSER_MAX_SESSIONS_PER_HOUSEHOLD: '1',
    BROWSER_BRIDGE_INTERNAL_TOKEN: TOKEN,
    ORCHESTRATOR_INTERNAL_TOKEN: ORCH_TOKEN,
    ARTIFACTS_AUDIT_BASE_URL: artifacts.url,
    ALLOW_PRIVATE_MERCHANT_HOSTS: shop.host,
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
  });
  app = await buildApp({
    config,
    store: createStore({ backend: 'inmemory' }),
    storage,
    members: fakeMembers(),
  });
  await app.listen({ host: '127.0.0.1', port });
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

it('keeps a session open while a parent watches its live view (still filling the household share), and lets it idle out once they leave', async () => {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/sessions',
    headers: internal,
    payload: { householdId: 'h_home', missionId: 'msn_watched', startUrl: `${shop.url}/` },
  });
  const id = created.json().sessionId;
  const status = async () =>
    (await app.inject({ method: 'GET', url: `/api/v1/sessions/${id}`, headers: internal })).json().status;
  const view = await app.inject({
    method: 'GET',
    url: `/api/v1/households/h_home/browser/sessions/${id}`,
    headers: asMember(),
  });
  const live = new URL(view.json().liveViewUrl);
  // HEAD answers the stream's headers at once (it started no screencast that would never end).
  const head = await fetch(`${live.origin}${live.pathname}/frames${live.search}`, {
    method: 'HEAD',
    signal: AbortSignal.timeout(5000),
  });
  expect(head.status).toBe(200);
  expect(head.headers.get('content-type')).toBe('text/event-stream');
  const watching = new AbortController();
  const frames = await fetch(`${live.origin}${live.pathname}/frames${live.search}`, {
    signal: watching.signal,
  });
  expect(frames.status).toBe(200);
  const stream = frames.body!.getReader();
  const seen: string[] = [];
  const reading = (async () => {
    for (;;) {
      const { done, value } = await stream.read();
      if (done) return;
      seen.push(new TextDecoder().decode(value));
    }
  })().catch(() => {});
  await expect.poll(() => seen.join('').includes('event: frame'), { timeout: 10_000 }).toBe(true);
  // Two and a half idle timeouts of watching a still page: the session is still open.
  await new Promise((r) => setTimeout(r, 5000));
  expect(await status()).toBe('ACTIVE');
  // Its row has not changed for longer than the idle timeout, but its browser is in use: it still
  // fills the household's share.
  const another = await app.inject({
    method: 'POST',
    url: '/api/v1/sessions',
    headers: internal,
    payload: { householdId: 'h_home', missionId: 'msn_second', startUrl: `${shop.url}/` },
  });
  expect(another.statusCode).toBe(429);

  watching.abort();
  await reading;
  await expect.poll(status, { timeout: 15_000, interval: 200 }).toBe('TERMINATED');
}, 45_000); // its waits alone can add up to 30 s on a slow machine
