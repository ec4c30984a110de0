// Real browsers are one pool for every household: one household may hold at most
// BROWSER_MAX_SESSIONS_PER_HOUSEHOLD open sessions, so it cannot starve the others.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserProvider } from '../src/adapters/browser-provider.ts';
import { createSimulatedProvider } from '../src/adapters/simulated-provider.ts';
import { heldSessions } from '../src/domain/household-session-limit.ts';
import { buildBridge, internal, startFakeOrchestrator } from './harness.ts';

/** A hosted browser as far as the bridge can tell: the simulated one under the `cloud` name. */
const hostedBrowser = (): BrowserProvider => ({ ...createSimulatedProvider(), name: 'cloud' });

let orch: Awaited<ReturnType<typeof startFakeOrchestrator>>;
beforeAll(async () => {
  orch = await startFakeOrchestrator();
});
afterAll(async () => orch.close());

const env = { ARTIFACT_LOCAL_DIR: mkdtempSync(join(tmpdir(), 'bridge-limit-')) };

async function open(app: Awaited<ReturnType<typeof buildBridge>>, householdId: string, missionId: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/sessions',
    headers: internal,
    payload: { householdId, missionId },
  });
}

describe('open browser sessions per household', () => {
  it('refuses a household its third real browser (429) while other households still get one', async () => {
    const app = await buildBridge({ orchestratorUrl: orch.url, provider: hostedBrowser(), env });
    try {
      const first = await open(app, 'h_busy', 'msn_1');
      expect((await open(app, 'h_busy', 'msn_2')).statusCode).toBe(201);

      const third = await open(app, 'h_busy', 'msn_3');
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBe('30');
      expect(third.json()).toEqual({
        error: 'RATE_LIMITED',
        message:
          'This household already has 2 browser sessions open (BROWSER_MAX_SESSIONS_PER_HOUSEHOLD); end one and try again',
      });
      expect((await open(app, 'h_other', 'msn_4')).statusCode).toBe(201);

      // Ending one gives its place back at once.
      const ended = await app.inject({
        method: 'POST',
        url: `/api/v1/sessions/${first.json().sessionId}/terminate`,
        headers: internal,
      });
      expect(ended.json().status).toBe('TERMINATED');
      expect((await open(app, 'h_busy', 'msn_3')).statusCode).toBe(201);
    } finally {
      await app.close();
    }
  });

  it('follows BROWSER_MAX_SESSIONS_PER_HOUSEHOLD, and leaves the simulated provider (no browser) unbounded', async () => {
    const one = await buildBridge({
      orchestratorUrl: orch.url,
      provider: hostedBrowser(),
      env: { ...env, BROWSER_MAX_SESSIONS_PER_HOUSEHOLD: '1' },
    });
    try {
      expect((await open(one, 'h_1', 'msn_1')).statusCode).toBe(201);
      expect((await open(one, 'h_1', 'msn_2')).statusCode).toBe(429);
    } finally {
      await one.close();
    }
    const simulated = await buildBridge({ orchestratorUrl: orch.url });
    try {
      for (const missionId of ['msn_1', 'msn_2', 'msn_3'])
        expect((await open(simulated, 'h_1', missionId)).statusCode).toBe(201);
    } finally {
      await simulated.close();
    }
  });
});

describe('which open sessions count against the household', () => {
  it('not one left unchanged past the idle timeout (its browser went with a restart), so the household is never shut out', () => {
    const now = Date.parse('2026-05-01T12:00:00Z');
    const open = [
      { updatedAt: '2026-05-01T11:59:00Z' }, // in use a minute ago
      { updatedAt: '2026-05-01T11:50:00Z' }, // exactly the idle timeout ago
      { updatedAt: '2026-05-01T09:00:00Z' }, // left ACTIVE by a service that restarted
    ];
    expect(heldSessions(open, now, 600_000)).toBe(2);
  });
});
