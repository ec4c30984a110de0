// BROWSER_PROVIDER=cloud against a local server speaking Browserbase's session API, which hands
// out the CDP address of a Chromium started here (--remote-debugging-port=0, fresh profile).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_FLAGS, DEFAULT_CHROMIUM_PATH } from '@hs/browser';
import { createStore } from '@hs/store';
import {
  createMemoryBlobStorage,
  DEMO_PATHS,
  type DemoShop,
  type FakePeer,
  startDemoShop,
  startFakePeer,
} from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadBrowserBridgeConfig } from '../src/config.ts';
import { internal, ORCH_TOKEN, TOKEN } from './harness.ts';

let chromium: ChildProcess;
let profile: string;
let cdpUrl: string;
let provider: FakePeer;
let shop: DemoShop;
let app: Awaited<ReturnType<typeof buildApp>>;
const state = { failCreate: false };

beforeAll(async () => {
  shop = await startDemoShop();
  profile = mkdtempSync(join(tmpdir(), 'fake-cloud-browser-'));
  chromium = spawn(
    DEFAULT_CHROMIUM_PATH,
    [...CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    // Its own process group, so the afterAll can stop the zygote and renderers with it.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  cdpUrl = await new Promise<string>((resolve, reject) => {
    let err = '';
    chromium.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (found) resolve(found[1]!);
    });
    chromium.on('exit', () => reject(new Error(`chromium exited: ${err}`)));
  });
  provider = await startFakePeer((call) => {
    if (call.method === 'POST' && call.url === '/v1/sessions')
      return state.failCreate
        ? { status: 500, body: { error: 'boom' } }
        : { status: 201, body: { id: 'bb_session_1', connectUrl: cdpUrl, status: 'RUNNING' } };
    if (call.method === 'GET' && call.url === '/v1/sessions/bb_session_1/debug')
      return { status: 200, body: { debuggerFullscreenUrl: 'https://live.provider.test/bb_session_1' } };
    if (call.method === 'POST' && call.url === '/v1/sessions/bb_session_1')
      return { status: 200, body: { status: 'COMPLETED' } };
    return { status: 404, body: {} };
  });
  const config = loadBrowserBridgeConfig({
    APP_ENV: 'test',
    BROWSER_PROVIDER: 'cloud',
    BROWSER_API_BASE_URL: provider.url,
    BROWSER_API_KEY: 'bb_test_key',
    BROWSER_PROJECT_ID: 'proj_1',
    BROWSER_BRIDGE_INTERNAL_TOKEN: TOKEN,
    ORCHESTRATOR_INTERNAL_TOKEN: ORCH_TOKEN,
    ALLOW_PRIVATE_MERCHANT_HOSTS: shop.host,
    ARTIFACTS_AUDIT_BASE_URL: 'http://127.0.0.1:9',
  });
  app = await buildApp({
    config,
    store: createStore({ backend: 'inmemory' }),
    storage: createMemoryBlobStorage(),
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await provider?.close();
  await stopChromium();
  await shop?.close();
  // Chromium's helpers may still be flushing into the profile for a moment after the group dies.
  if (profile) rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

async function stopChromium(): Promise<void> {
  if (!chromium?.pid || chromium.exitCode !== null || chromium.signalCode !== null) return;
  const exited = new Promise((resolve) => chromium.once('exit', resolve));
  try {
    process.kill(-chromium.pid, 'SIGKILL');
  } catch {
    chromium.kill('SIGKILL');
  }
  await exited;
}

const post = (url: string, payload?: object) =>
  app.inject({ method: 'POST', url, headers: internal, ...(payload ? { payload } : {}) });

describe('cloud browser provider', () => {
  it('creates a hosted session, drives it over CDP, shows the provider live view and releases it', async () => {
    const created = await post('/api/v1/sessions', {
      householdId: 'h_home',
      missionId: 'msn_cloud',
      startUrl: `${shop.url}/`,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      provider: 'cloud',
      liveViewUrl: 'https://live.provider.test/bb_session_1',
    });
    expect(provider.calls[0]).toMatchObject({
      method: 'POST',
      url: '/v1/sessions',
      body: { projectId: 'proj_1' },
    });
    const id = created.json().sessionId;
    const moved = await post(`/api/v1/sessions/${id}/agent-action`, {
      type: 'NAVIGATE',
      url: `${shop.url}${DEMO_PATHS.layoutB}`,
    });
    expect(moved.json().session.currentUrl).toBe(`${shop.url}${DEMO_PATHS.layoutB}`);
    const page = await app.inject({
      method: 'GET',
      url: `/api/v1/sessions/${id}/elements`,
      headers: internal,
    });
    expect(page.json().elements).toContainEqual(
      expect.objectContaining({ role: 'button', name: 'Add to bag' }),
    );
    expect((await post(`/api/v1/sessions/${id}/terminate`)).json().status).toBe('TERMINATED');
    expect(provider.calls.at(-1)).toMatchObject({
      method: 'POST',
      url: '/v1/sessions/bb_session_1',
      body: { projectId: 'proj_1', status: 'REQUEST_RELEASE' },
    });
  });

  it('answers 502 UPSTREAM_ERROR when the provider fails', async () => {
    state.failCreate = true;
    const refused = await post('/api/v1/sessions', {
      householdId: 'h_home',
      missionId: 'msn_cloud2',
      startUrl: `${shop.url}/`,
    });
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toEqual({
      error: 'UPSTREAM_ERROR',
      message: 'Browser provider failed to create a session',
    });
  });
});
