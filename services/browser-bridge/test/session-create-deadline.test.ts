// A create whose caller (the orchestrator, X-Request-Timeout-Ms) has given up must not leave an
// ACTIVE session behind that nobody knows about, holding the household's and the pool's places
// until the idle timeout: a slow start page is cut to the caller's time, and a session that opens
// after the caller left is closed instead of stored.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REQUEST_TIMEOUT_HEADER } from '@hs/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserProvider } from '../src/adapters/browser-provider.ts';
import { createSimulatedProvider } from '../src/adapters/simulated-provider.ts';
import { buildBridge, internal, startFakeOrchestrator, startShopPage } from './harness.ts';

const SLOW_PAGE_MS = 4000;
let orch: Awaited<ReturnType<typeof startFakeOrchestrator>>;
let site: Awaited<ReturnType<typeof startShopPage>>;
let siteHost: string;

beforeAll(async () => {
  orch = await startFakeOrchestrator();
  // `/slow` answers after SLOW_PAGE_MS, everything else at once.
  site = await startShopPage({ slowPath: '/slow', delayMs: SLOW_PAGE_MS });
  siteHost = site.host;
});

afterAll(async () => {
  site?.close();
  await orch?.close();
});

const env = {
  ARTIFACT_LOCAL_DIR: mkdtempSync(join(tmpdir(), 'bridge-deadline-')),
  BROWSER_MAX_SESSIONS_PER_HOUSEHOLD: '1',
};
type Bridge = Awaited<ReturnType<typeof buildBridge>>;

function open(app: Bridge, householdId: string, startUrl: string, timeoutMs?: number) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/sessions',
    headers: { ...internal, ...(timeoutMs ? { [REQUEST_TIMEOUT_HEADER]: String(timeoutMs) } : {}) },
    payload: { householdId, missionId: `msn_${householdId}`, startUrl },
  });
}

/** A hosted browser whose launches take `launchMs`; it records the sessions it was told to end. */
function slowProvider(launchMs: number) {
  const simulated = createSimulatedProvider();
  const terminated: string[] = [];
  const provider: BrowserProvider = {
    ...simulated,
    name: 'cloud',
    async create(input) {
      await new Promise((r) => setTimeout(r, launchMs));
      return simulated.create(input);
    },
    async terminate(handle) {
      terminated.push(handle.providerSessionId);
      return simulated.terminate(handle);
    },
  };
  return { provider, terminated };
}

describe('a create that outlives its caller', () => {
  it('closes a session that opened after the caller stopped waiting, so it holds no place', async () => {
    const slow = slowProvider(400);
    const app = await buildBridge({ orchestratorUrl: orch.url, provider: slow.provider, env });
    try {
      const late = await open(app, 'h_home', 'https://www.example.com/', 150);
      expect(late.statusCode).toBe(504);
      expect(slow.terminated).toHaveLength(1);
      // The household's only place is free: nothing ACTIVE was left behind.
      const next = await open(app, 'h_home', 'https://www.example.com/');
      expect(next.statusCode).toBe(201);
      expect(slow.terminated).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('local: a start page slower than the caller fails the create within the caller time, leaving no session', async () => {
    const app = await buildBridge({
      orchestratorUrl: orch.url,
      env: { ...env, BROWSER_PROVIDER: 'local', ALLOW_PRIVATE_MERCHANT_HOSTS: siteHost },
    });
    try {
      // Chromium started by another household first, so only the start page is slow.
      expect((await open(app, 'h_warm', `http://${siteHost}/`)).statusCode).toBe(201);

      const started = Date.now();
      const late = await open(app, 'h_home', `http://${siteHost}/slow`, 1500);
      expect(Date.now() - started).toBeLessThan(SLOW_PAGE_MS - 500);
      expect(late.statusCode).toBeGreaterThanOrEqual(500);
      const next = await open(app, 'h_home', `http://${siteHost}/`);
      expect(next.statusCode).toBe(201);
    } finally {
      await app.close();
    }
  }, 30_000);
});
