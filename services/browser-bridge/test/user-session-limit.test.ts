// BROWSER_MAX_SESSIONS_PER_USER: two INTERACTIVE missions in each of two households of one
// account took all four local browsers, and every other family's INTERACTIVE mission got 503.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@hs/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserProvider } from '../src/adapters/browser-provider.ts';
import { createSimulatedProvider } from '../src/adapters/simulated-provider.ts';
import { loadBrowserBridgeConfig } from '../src/config.ts';
import { asMember, buildBridge, startFakeOrchestrator } from './harness.ts';

let orch: Awaited<ReturnType<typeof startFakeOrchestrator>>;
beforeAll(async () => {
  orch = await startFakeOrchestrator();
});
afterAll(async () => orch.close());

const env = { ARTIFACT_LOCAL_DIR: mkdtempSync(join(tmpdir(), 'bridge-user-')) };
type Bridge = Awaited<ReturnType<typeof buildBridge>>;

/** A create as the orchestrator sends it: for the mission owner it acts for. */
const open = (app: Bridge, ownerId: string, householdId: string, missionId: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/sessions',
    headers: asMember(ownerId),
    payload: { householdId, missionId },
  });

async function withBridge(provider: BrowserProvider, run: (app: Bridge) => Promise<void>, extra = {}) {
  const app = await buildBridge({ orchestratorUrl: orch.url, provider, env: { ...env, ...extra } });
  try {
    await run(app);
  } finally {
    await app.close();
  }
}

/** A hosted browser as far as the bridge can tell: the simulated one under the `cloud` name. */
const hostedBrowser = (): BrowserProvider => ({ ...createSimulatedProvider(), name: 'cloud' });

describe('open browser sessions per user across households', () => {
  it("refuses an owner's session in a second household once they hold BROWSER_MAX_SESSIONS_PER_USER (429), never another user", async () => {
    await withBridge(hostedBrowser(), async (app) => {
      expect((await open(app, 'usr_mallory', 'h_one', 'msn_1')).statusCode).toBe(201);
      const second = await open(app, 'usr_mallory', 'h_one', 'msn_2');
      expect(second.statusCode).toBe(201);
      const third = await open(app, 'usr_mallory', 'h_two', 'msn_3');
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBe('30');
      expect(third.json()).toEqual({
        error: 'RATE_LIMITED',
        message:
          'You already have 2 browser sessions open across your households (BROWSER_MAX_SESSIONS_PER_USER); end one and try again',
      });
      // Another member of that household still gets a browser.
      expect((await open(app, 'usr_alice', 'h_two', 'msn_4')).statusCode).toBe(201);
      // Ending one gives the owner's place back at once.
      const ended = await app.inject({
        method: 'POST',
        url: `/api/v1/sessions/${second.json().sessionId}/terminate`,
        headers: asMember('usr_mallory'),
      });
      expect(ended.statusCode).toBe(200);
      expect((await open(app, 'usr_mallory', 'h_two', 'msn_3')).statusCode).toBe(201);
    });
  });

  it("checks the household's share first", async () => {
    await withBridge(
      hostedBrowser(),
      async (app) => {
        expect((await open(app, 'usr_mallory', 'h_one', 'msn_1')).statusCode).toBe(201);
        expect((await open(app, 'usr_mallory', 'h_one', 'msn_2')).statusCode).toBe(201);
        expect((await open(app, 'usr_mallory', 'h_one', 'msn_3')).json().message).toBe(
          'This household already has 2 browser sessions open (BROWSER_MAX_SESSIONS_PER_HOUSEHOLD); end one and try again',
        );
      },
      { BROWSER_MAX_SESSIONS_PER_USER: '2' },
    );
  });

  it("counts an owner's creates still launching in other households", async () => {
    const simulated = createSimulatedProvider();
    let started = 0;
    let finish = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const slow: BrowserProvider = {
      ...simulated,
      name: 'cloud',
      async create(input) {
        started++;
        await finished;
        return simulated.create(input);
      },
    };
    await withBridge(slow, async (app) => {
      let answered = 0;
      const replies = ['h_a', 'h_b', 'h_c', 'h_d'].map((householdId, i) =>
        open(app, 'usr_mallory', householdId, `msn_${i}`).then((reply) => {
          answered++;
          return reply;
        }),
      );
      await expect.poll(() => started + answered).toBe(4);
      finish();
      const codes = (await Promise.all(replies)).map((reply) => reply.statusCode).sort();
      expect(codes).toEqual([201, 201, 429, 429]);
    });
  });

  it('defaults BROWSER_MAX_SESSIONS_PER_USER to the household share and stops the boot on a bad value', () => {
    expect(loadBrowserBridgeConfig({}).browser.maxSessionsPerUser).toBe(2);
    expect(loadBrowserBridgeConfig({ BROWSER_MAX_SESSIONS_PER_USER: '3' }).browser.maxSessionsPerUser).toBe(
      3,
    );
    expect(() => loadBrowserBridgeConfig({ BROWSER_MAX_SESSIONS_PER_USER: '0' })).toThrow(
      new ConfigError(
        'Configuration error: BROWSER_MAX_SESSIONS_PER_USER Too small: expected number to be >=1 (value: "0")',
      ),
    );
    expect(() => loadBrowserBridgeConfig({ BROWSER_MAX_SESSIONS_PER_USER: '65' })).toThrow(
      /^Configuration error: BROWSER_MAX_SESSIONS_PER_USER /,
    );
  });
});
