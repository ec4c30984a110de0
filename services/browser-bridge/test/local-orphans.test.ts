// A `local` session's browser lives and dies with the bridge process that launched it:
// - a bridge killed with sessions open leaves them ACTIVE in the store; the next bridge on that
//   store ends them at boot as a lost browser is ended (FAILED, recording from the stored log),
//   and leaves a cloud provider's sessions alone;
// - two bridges on one store never end each other's live sessions, only those of one gone;
// - a session FAILED by a provider call that found its browser gone keeps its recording.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chromiumLaunchedHere,
  createAddressGuard,
  createBrowserPool,
  reapOrphanedChromium,
} from '@hs/browser';
import { createStore, type Store, storeConfigFromEnv } from '@hs/store';
import { freePort, REPO_ROOT, signalAndWait } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalProvider } from '../src/adapters/local-provider.ts';
import { BROWSER_SESSION_COLLECTIONS } from '../src/adapters/session-repository.ts';
import { buildApp } from '../src/app.ts';
import { loadBrowserBridgeConfig } from '../src/config.ts';
import type { StoredBrowserSession } from '../src/domain/session-machine.ts';
import { fakeMembers, internal, ORCH_TOKEN, startFakeOrchestrator, startShopPage, TOKEN } from './harness.ts';

let orch: Awaited<ReturnType<typeof startFakeOrchestrator>>;
let site: Awaited<ReturnType<typeof startShopPage>>;
let dir: string;

beforeAll(async () => {
  orch = await startFakeOrchestrator();
  site = await startShopPage();
  dir = mkdtempSync(join(tmpdir(), 'bridge-orphans-'));
});

afterAll(async () => {
  site?.close();
  await orch?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (over: Record<string, string> = {}) => ({
  APP_ENV: 'test',
  BROWSER_PROVIDER: 'local',
  BROWSER_BRIDGE_INTERNAL_TOKEN: TOKEN,
  ORCHESTRATOR_INTERNAL_TOKEN: ORCH_TOKEN,
  ORCHESTRATOR_BASE_URL: orch.url,
  ARTIFACTS_AUDIT_BASE_URL: 'http://127.0.0.1:9',
  ALLOW_PRIVATE_MERCHANT_HOSTS: site.host,
  ARTIFACT_LOCAL_DIR: join(dir, 'blobs'),
  ...over,
});

async function bridge(store: Store, over: Parameters<typeof buildApp>[0]['instances'] = undefined) {
  const app = await buildApp({
    config: loadBrowserBridgeConfig(env()),
    store,
    members: fakeMembers(),
    ...(over ? { instances: over } : {}),
  });
  await app.ready();
  return app;
}

type App = Awaited<ReturnType<typeof bridge>>;
const open = async (app: App, missionId: string) => {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/sessions',
    headers: internal,
    payload: { householdId: 'h_home', missionId, startUrl: `http://${site.host}/` },
  });
  expect(created.statusCode).toBe(201);
  return created.json().sessionId as string;
};
const read = async (app: App, id: string) =>
  (await app.inject({ method: 'GET', url: `/api/v1/sessions/${id}`, headers: internal })).json();
const act = (app: App, id: string) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/sessions/${id}/agent-action`,
    headers: internal,
    payload: { type: 'SCROLL' },
  });
const HOLDER_GONE_REASON =
  'The browser ended with the bridge process that held it (stopped, killed or restarted)';
const recordingOf = (missionId: string, id: string) =>
  join(dir, 'blobs', 'households', 'h_home', 'missions', missionId, 'recordings', `${id}.json`);

describe('sessions of a bridge process that was killed', () => {
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child) await signalAndWait(child, 'SIGKILL');
  });

  it('are FAILED at the next boot, recording written, cloud sessions left alone', async () => {
    const dataDir = join(dir, 'data');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(
      process.execPath,
      ['--conditions=@hs/source', join(REPO_ROOT, 'services/browser-bridge/src/server.ts')],
      {
        env: {
          ...process.env,
          ...env({ PORT: String(port), HOST: '127.0.0.1', PERSISTENCE_BACKEND: 'sqlite', DATA_DIR: dataDir }),
        },
        stdio: 'ignore',
      },
    );
    await expect
      .poll(async () => (await fetch(`${base}/ready`).catch(() => null))?.status, { timeout: 20_000 })
      .toBe(200);
    const created = await fetch(`${base}/api/v1/sessions`, {
      method: 'POST',
      headers: { ...internal, 'content-type': 'application/json' },
      body: JSON.stringify({
        householdId: 'h_home',
        missionId: 'msn_killed',
        startUrl: `http://${site.host}/`,
      }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { sessionId: string }).sessionId;
    const scrolled = await fetch(`${base}/api/v1/sessions/${id}/agent-action`, {
      method: 'POST',
      headers: { ...internal, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'SCROLL' }),
    });
    expect(scrolled.status).toBe(200);

    // The process dies at once: nothing of it runs any more (its browser is ended as its
    // successor's boot would end it).
    await signalAndWait(child, 'SIGKILL');
    child = undefined;
    reapOrphanedChromium();

    const store = createStore(
      storeConfigFromEnv({
        service: 'browser-bridge',
        ...loadBrowserBridgeConfig(env({ PERSISTENCE_BACKEND: 'sqlite', DATA_DIR: dataDir })).persistence,
      }),
    );
    const rows = store.collection<StoredBrowserSession>(
      'browser_sessions',
      BROWSER_SESSION_COLLECTIONS.browser_sessions,
    );
    const left = await rows.get(id);
    expect(left).toMatchObject({ status: 'ACTIVE', provider: 'local' });
    // A hosted browser lives at the provider, not in the process: its session stays open.
    const at = new Date().toISOString();
    await rows.put('bs_cloud', {
      ...left!,
      sessionId: 'bs_cloud',
      missionId: 'msn_cloud',
      provider: 'cloud',
      providerSessionId: 'bb_1',
      browserInstance: null,
      createdAt: at,
      updatedAt: at,
    });

    const app = await bridge(store);
    try {
      const after = await read(app, id);
      expect(after.status).toBe('FAILED');
      expect(after.actionLog.at(-1)).toMatchObject({
        actor: 'system',
        type: `FAILED: ${HOLDER_GONE_REASON}`,
      });
      const recording = JSON.parse(readFileSync(recordingOf('msn_killed', id), 'utf8'));
      expect(recording.actionLog.map((l: { type: string }) => l.type)).toEqual([
        'SCROLL',
        `FAILED: ${HOLDER_GONE_REASON}`,
      ]);
      expect((await read(app, 'bs_cloud')).status).toBe('ACTIVE');
    } finally {
      await app.close();
      await store.close();
    }
  }, 60_000);
});

describe('two bridges on one store', () => {
  it("never end each other's live sessions, only those of one that has gone", async () => {
    const store = createStore({ backend: 'inmemory' });
    const first = await bridge(store);
    let firstClosed = false;
    let second: App | undefined;
    try {
      const id = await open(first, 'msn_first');
      second = await bridge(store, { sweepMs: 100, leaseMs: 600 });
      await new Promise((r) => setTimeout(r, 500));
      expect((await read(second, id)).status).toBe('ACTIVE');
      expect((await act(first, id)).statusCode).toBe(200);

      // A session of a bridge on another machine that was killed: alive for the others until its
      // registration has gone unrenewed for a whole lease, as the second bridge's clock counts.
      const rows = store.collection<StoredBrowserSession>(
        'browser_sessions',
        BROWSER_SESSION_COLLECTIONS.browser_sessions,
      );
      const instances = store.collection('browser_bridge_instances');
      await instances.put('bbi_remote', {
        instanceId: 'bbi_remote',
        host: 'elsewhere',
        pid: process.pid,
        processId: 'another-process',
        startedAt: new Date().toISOString(),
        expiresAt: Date.now() + 1000,
      });
      const remoteId = 'bs_remote';
      await rows.put(remoteId, {
        ...(await rows.get(id))!,
        sessionId: remoteId,
        missionId: 'msn_remote',
        providerSessionId: remoteId,
        browserInstance: 'bbi_remote',
        actionLog: [],
      });
      await new Promise((r) => setTimeout(r, 300));
      expect((await read(second, remoteId)).status).toBe('ACTIVE');
      await expect
        .poll(async () => (await read(second!, remoteId)).status, { timeout: 5000, interval: 100 })
        .toBe('FAILED');
      expect((await read(second, id)).status).toBe('ACTIVE');

      // The first one shut down: its browsers went with it.
      await first.close();
      firstClosed = true;
      await expect
        .poll(async () => (await read(second!, id)).status, { timeout: 5000, interval: 100 })
        .toBe('FAILED');
      expect(existsSync(recordingOf('msn_first', id))).toBe(true);
    } finally {
      if (!firstClosed) await first.close();
      await second?.close();
    }
  }, 60_000);
});

describe('a session whose browser a provider call finds gone', () => {
  it('is FAILED with its recording written', async () => {
    // The pool tells nobody of the loss here: only the provider call finds it.
    const pool = createBrowserPool({
      guard: createAddressGuard({ allowPrivateHosts: [site.host] }),
      maxSessions: 2,
      idleMs: 60_000,
    });
    const app = await buildApp({
      config: loadBrowserBridgeConfig(env()),
      store: createStore({ backend: 'inmemory' }),
      members: fakeMembers(),
      provider: createLocalProvider(pool),
    });
    await app.ready();
    try {
      const id = await open(app, 'msn_gone');
      expect((await act(app, id)).statusCode).toBe(200);
      const browsers = chromiumLaunchedHere();
      expect(browsers.length).toBeGreaterThan(0);
      for (const pid of browsers) process.kill(-pid, 'SIGKILL');
      await expect.poll(() => chromiumLaunchedHere().length, { timeout: 5000 }).toBe(0);
      expect((await act(app, id)).statusCode).toBe(502);
      expect((await read(app, id)).status).toBe('FAILED');
      const file = recordingOf('msn_gone', id);
      await expect.poll(() => existsSync(file), { timeout: 5000, interval: 100 }).toBe(true);
      const recording = JSON.parse(readFileSync(file, 'utf8'));
      expect(recording.screenshots.map((s: { type: string }) => s.type)).toEqual(['SCROLL']);
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('a session ended by another bridge on the store', () => {
  it('has its browser closed by the bridge that holds it at its next sweep', async () => {
    const store = createStore({ backend: 'inmemory' });
    // One browser at a time: the holder can open another only once it has closed the first.
    const holder = await buildApp({
      config: loadBrowserBridgeConfig(env({ BROWSER_MAX_SESSIONS: '1' })),
      store,
      members: fakeMembers(),
      instances: { sweepMs: 200 },
    });
    await holder.ready();
    const other = await bridge(store);
    try {
      const id = await open(holder, 'msn_held_here');
      const ended = await other.inject({
        method: 'POST',
        url: '/api/v1/missions/msn_held_here/sessions/terminate',
        headers: internal,
        payload: { householdId: 'h_home' },
      });
      expect(ended.json()).toEqual({ terminated: [id] });
      await expect
        .poll(
          async () =>
            (
              await holder.inject({
                method: 'POST',
                url: '/api/v1/sessions',
                headers: internal,
                payload: { householdId: 'h_home', missionId: 'msn_next', startUrl: `http://${site.host}/` },
              })
            ).statusCode,
          { timeout: 5000, interval: 250 },
        )
        .toBe(201);
    } finally {
      await holder.close();
      await other.close();
    }
  }, 60_000);
});
