// BROWSER_PROVIDER=local end to end on the demo shop, in real Chromium: the agent acts and reads
// elements, the session cap answers 503, a parent watches the live view, takes over, clicks
// through it and releases, and terminating writes the recording.
import { launchLocalChromium } from '@hs/browser';
import { createStore } from '@hs/store';
import {
  createMemoryBlobStorage,
  DEMO_PATHS,
  type DemoShop,
  type FakePeer,
  freePort,
  receiptFor,
  startDemoShop,
  startFakePeer,
} from '@hs/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadBrowserBridgeConfig } from '../src/config.ts';
import { asMember, fakeMembers, internal, ORCH_TOKEN, startFakeOrchestrator, TOKEN } from './harness.ts';

let shop: DemoShop;
let orchestrator: Awaited<ReturnType<typeof startFakeOrchestrator>>;
let artifacts: FakePeer;
let app: Awaited<ReturnType<typeof buildApp>>;
let viewer: Browser | undefined;
const storage = createMemoryBlobStorage();
const H = '/api/v1/households/h_home/browser/sessions';

beforeAll(async () => {
  shop = await startDemoShop();
  orchestrator = await startFakeOrchestrator();
  artifacts = await startFakePeer((call) => ({ status: 201, body: receiptFor(call) }));
  const port = await freePort();
  const config = loadBrowserBridgeConfig({
    APP_ENV: 'test',
    PORT: String(port),
    BROWSER_PROVIDER: 'local',
    BROWSER_MAX_SESSIONS: '2',
    BROWSER_BRIDGE_INTERNAL_TOKEN: TOKEN,
    ORCHESTRATOR_INTERNAL_TOKEN: ORCH_TOKEN,
    ORCHESTRATOR_BASE_URL: orchestrator.url,
    ARTIFACTS_AUDIT_BASE_URL: artifacts.url,
    ARTIFACTS_AUDIT_INTERNAL_TOKEN: 'test-artifacts-token',
    ALLOW_PRIVATE_MERCHANT_HOSTS: shop.host,
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
  await viewer?.close();
  await app?.close();
  await artifacts?.close();
  await orchestrator?.close();
  await shop?.close();
});

const post = (url: string, payload?: object, headers: Record<string, string> = internal) =>
  app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
const act = (id: string, payload: object) => post(`/api/v1/sessions/${id}/agent-action`, payload);
const elements = async (id: string) =>
  (await app.inject({ method: 'GET', url: `${H}/${id}/elements`, headers: asMember() })).json();

describe('local browser sessions', () => {
  let sessionId: string;

  it('opens the start page, runs the agent actions in it and lists its elements', async () => {
    const created = await post('/api/v1/sessions', {
      householdId: 'h_home',
      missionId: 'msn_live',
      startUrl: `${shop.url}/`,
    });
    expect(created.statusCode).toBe(201);
    sessionId = created.json().sessionId;
    expect(created.json()).toMatchObject({ provider: 'local', status: 'ACTIVE' });
    const start = await elements(sessionId);
    expect(start.url).toBe(`${shop.url}/`);
    const product = start.elements.find((e: { name: string }) => e.name === 'Linen Shirt');
    expect(product).toMatchObject({ role: 'link', href: `${shop.url}${DEMO_PATHS.layoutB}` });

    expect(
      (await act(sessionId, { type: 'CLICK', selector: product.selector })).json().session.currentUrl,
    ).toBe(`${shop.url}${DEMO_PATHS.layoutB}`);
    const page = await elements(sessionId);
    const bag = page.elements.find((e: { name: string }) => e.name === 'Add to bag');
    expect(bag).toMatchObject({ role: 'button', selector: '#bag' });
    expect((await act(sessionId, { type: 'SCROLL' })).statusCode).toBe(200);
    expect((await act(sessionId, { type: 'SCREENSHOT' })).statusCode).toBe(200);
    // A private address the allowlist does not name is refused before the browser tries it.
    const refused = await act(sessionId, { type: 'NAVIGATE', url: 'http://127.0.0.1:9/' });
    expect(refused.statusCode).toBe(400);
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After past BROWSER_MAX_SESSIONS', async () => {
    // The pool is shared by every household (each also has its own share, household-session-limit.test.ts).
    const second = await post('/api/v1/sessions', {
      householdId: 'h_next_door',
      missionId: 'msn_two',
      startUrl: `${shop.url}/`,
    });
    expect(second.statusCode).toBe(201);
    const third = await post('/api/v1/sessions', {
      householdId: 'h_down_the_road',
      missionId: 'msn_three',
      startUrl: `${shop.url}/`,
    });
    expect(third.statusCode).toBe(503);
    expect(third.headers['retry-after']).toBe('30');
    expect(third.json()).toEqual({
      error: 'SERVICE_UNAVAILABLE',
      message: 'All 2 browser sessions are in use',
    });
    await post(`/api/v1/sessions/${second.json().sessionId}/terminate`);
  });

  it('streams the page to the live view and sends the parent clicks while they hold the session', async () => {
    const read = await app.inject({ method: 'GET', url: `${H}/${sessionId}`, headers: asMember() });
    const liveViewUrl: string = read.json().liveViewUrl;
    expect(liveViewUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+${H}/${sessionId}/live\\?token=`));
    const forged = await app.inject({ method: 'GET', url: `${new URL(liveViewUrl).pathname}?token=x.y` });
    expect(forged.json()).toEqual({ error: 'FORBIDDEN', message: 'Invalid or expired live view token' });

    viewer = await launchLocalChromium();
    const tab = await viewer.newPage({ viewport: { width: 1280, height: 900 } });
    await tab.goto(liveViewUrl);
    await tab.locator('#screen[data-frames]').waitFor();
    expect(await tab.locator('#screen').getAttribute('src')).toMatch(/^data:image\/jpeg;base64,\/9j\//);

    // Before takeover the parent's input is refused; after it, the agent's is.
    const input = `${new URL(liveViewUrl).pathname}/input${new URL(liveViewUrl).search}`;
    expect(
      (await app.inject({ method: 'POST', url: input, payload: { type: 'key', key: 'End' } })).statusCode,
    ).toBe(409);
    await tab.click('#take');
    await tab.locator('#status', { hasText: /^USER_TAKEOVER$/ }).waitFor();
    const refused = await act(sessionId, { type: 'SCROLL' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'CONFLICT',
      message: 'the user is in control of the browser',
    });

    const { elements: seen } = await elements(sessionId);
    const bagLink = seen.find((e: { name: string; role: string }) => e.role === 'link' && e.name === 'Bag');
    const screen = await tab.locator('#screen').boundingBox();
    const scale = screen!.width / 1280;
    await tab.mouse.click(
      screen!.x + (bagLink.box.x + bagLink.box.width / 2) * scale,
      screen!.y + (bagLink.box.y + bagLink.box.height / 2) * scale,
    );
    await expect
      .poll(async () => (await elements(sessionId)).url, { timeout: 10_000 })
      .toBe(`${shop.url}/cart`);

    await tab.click('#release');
    await tab.locator('#status', { hasText: /^ACTIVE$/ }).waitFor();
    expect(
      (await act(sessionId, { type: 'NAVIGATE', url: `${shop.url}${DEMO_PATHS.layoutA}` })).statusCode,
    ).toBe(200);
    expect(orchestrator.events.map((e) => e.body.type)).toEqual(['USER_TAKEOVER_START', 'USER_TAKEOVER_END']);
  });

  it('writes the recording on terminate: action log and one screenshot per agent step', async () => {
    const ended = await post(`/api/v1/sessions/${sessionId}/terminate`);
    expect(ended.json().status).toBe('TERMINATED');
    const path = `households/h_home/missions/msn_live/recordings/${sessionId}.json`;
    const blob = storage.objects.get(path);
    expect(blob?.info.contentType).toBe('application/json');
    const recording = JSON.parse(Buffer.from(blob!.bytes).toString('utf8'));
    const agentSteps = recording.actionLog.filter((l: { actor: string }) => l.actor === 'agent');
    expect(recording.screenshots.map((s: { type: string }) => s.type)).toEqual(
      agentSteps.map((l: { type: string }) => l.type),
    );
    expect(agentSteps.map((l: { type: string }) => l.type)).toEqual([
      'CLICK',
      'SCROLL',
      'SCREENSHOT',
      'NAVIGATE',
    ]);
    expect(Buffer.from(recording.screenshots[0].jpegBase64, 'base64').subarray(0, 2)).toEqual(
      Buffer.from([0xff, 0xd8]),
    );
    expect(recording.actionLog.map((l: { type: string; actor: string }) => `${l.actor}:${l.type}`)).toContain(
      'user:LIVE_CLICK',
    );

    await expect.poll(() => artifacts.calls.length).toBe(2);
    const call = artifacts.calls.find(
      (c) => c.body && (c.body as { sessionId?: string }).sessionId === sessionId,
    );
    expect(call).toMatchObject({
      method: 'POST',
      url: '/api/v1/households/h_home/artifacts/recording',
      token: 'test-artifacts-token',
      body: { missionId: 'msn_live', sessionId, storagePath: path },
    });
  });

  it('answers 409 for a covered button before the caller gives up, and the session stays usable', async () => {
    const created = await post('/api/v1/sessions', {
      householdId: 'h_home',
      missionId: 'msn_covered',
      startUrl: `${shop.url}${DEMO_PATHS.modal}`,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().sessionId;
    const page = await elements(id);
    const addToCart = page.elements.find((e: { name: string }) => /add to cart/i.test(e.name));
    expect(addToCart).toBeTruthy();
    // The orchestrator's tool call waits 3 s more: the bridge must answer within that.
    const click = await post(
      `/api/v1/sessions/${id}/agent-action`,
      { type: 'CLICK', selector: addToCart.selector },
      { ...internal, 'x-request-timeout-ms': '3000' },
    );
    expect(click.statusCode).toBe(409);
    expect(click.json().error).toBe('CONFLICT');
    const waited = Number(/within (\d+) ms/.exec(click.json().message)?.[1]);
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(2000);
    const after = await app.inject({ method: 'GET', url: `/api/v1/sessions/${id}`, headers: internal });
    expect(after.json().status).toBe('ACTIVE');
    expect((await act(id, { type: 'SCROLL' })).statusCode).toBe(200);
    await post(`/api/v1/sessions/${id}/terminate`);
  });
});
