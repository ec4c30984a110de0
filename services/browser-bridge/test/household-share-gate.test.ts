// BROWSER_MAX_SESSIONS_PER_HOUSEHOLD at the door of a create: creates still launching count, a
// browser the provider still holds counts however old its row, and the 429 comes before the body.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrowserProvider } from '../src/adapters/browser-provider.ts';
import { createSimulatedProvider } from '../src/adapters/simulated-provider.ts';
import { buildBridge, internal, startFakeOrchestrator } from './harness.ts';

let orch: Awaited<ReturnType<typeof startFakeOrchestrator>>;
beforeAll(async () => {
  orch = await startFakeOrchestrator();
});
afterAll(async () => orch.close());
afterEach(() => {
  vi.useRealTimers();
});

const env = { ARTIFACT_LOCAL_DIR: mkdtempSync(join(tmpdir(), 'bridge-share-')) };
type Bridge = Awaited<ReturnType<typeof buildBridge>>;

function open(app: Bridge, householdId: string, missionId: string, startUrl?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/sessions',
    headers: internal,
    payload: { householdId, missionId, ...(startUrl ? { startUrl } : {}) },
  });
}

async function withBridge(provider: BrowserProvider, run: (app: Bridge) => Promise<void>, extra = {}) {
  const app = await buildBridge({ orchestratorUrl: orch.url, provider, env: { ...env, ...extra } });
  try {
    await run(app);
  } finally {
    await app.close();
  }
}

/** A hosted browser whose launches all wait until the test lets them finish. */
function slowLaunches() {
  const simulated = createSimulatedProvider();
  let started = 0;
  let finish = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const provider: BrowserProvider = {
    ...simulated,
    name: 'cloud',
    async create(input) {
      started++;
      await finished;
      return simulated.create(input);
    },
  };
  return { provider, started: () => started, finish };
}

describe('creates still launching', () => {
  it('four parallel creates under a share of 2 while the browsers launch: two 201 and two 429', async () => {
    const slow = slowLaunches();
    await withBridge(slow.provider, async (app) => {
      let answered = 0;
      const replies = ['msn_1', 'msn_2', 'msn_3', 'msn_4'].map((missionId) =>
        open(app, 'h_race', missionId).then((reply) => {
          answered++;
          return reply;
        }),
      );
      // Every create has reached the provider or been answered, and no launch has finished yet.
      await expect.poll(() => slow.started() + answered).toBe(4);
      slow.finish();
      const codes = (await Promise.all(replies)).map((reply) => reply.statusCode).sort();
      expect(codes).toEqual([201, 201, 429, 429]);
      expect(slow.started()).toBe(2);
    });
  });

  it('a launch that fails gives its place back', async () => {
    const simulated = createSimulatedProvider();
    let failNext = true;
    const provider: BrowserProvider = {
      ...simulated,
      name: 'cloud',
      async create(input) {
        if (failNext) {
          failNext = false;
          throw new Error('provider down');
        }
        return simulated.create(input);
      },
    };
    await withBridge(provider, async (app) => {
      expect((await open(app, 'h_retry', 'msn_1')).statusCode).toBe(502);
      expect((await open(app, 'h_retry', 'msn_1')).statusCode).toBe(201);
      expect((await open(app, 'h_retry', 'msn_2')).statusCode).toBe(201);
      expect((await open(app, 'h_retry', 'msn_3')).statusCode).toBe(429);
    });
  });
});

describe('sessions the provider still holds', () => {
  /** Browsers as the local provider reports them: `launched` in order, `gone` the ones that ended. */
  function heldBrowsers() {
    const simulated = createSimulatedProvider();
    const launched: string[] = [];
    const gone = new Set<string>();
    const provider: BrowserProvider = {
      ...simulated,
      name: 'local',
      async create(input) {
        const created = await simulated.create(input);
        launched.push(created.providerSessionId);
        return created;
      },
      holds: (handle) => !gone.has(handle.providerSessionId),
    };
    return { provider, launched, gone };
  }

  it('counts one in long live-view use although its row has not changed for longer than the idle timeout', async () => {
    const pool = heldBrowsers();
    await withBridge(pool.provider, async (app) => {
      expect((await open(app, 'h_watching', 'msn_1')).statusCode).toBe(201);
      expect((await open(app, 'h_watching', 'msn_2')).statusCode).toBe(201);
      // Eleven minutes of a parent steering the page in the live view: no row changes meanwhile.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 11 * 60_000 });
      expect((await open(app, 'h_watching', 'msn_3')).statusCode).toBe(429);
    });
  });

  it('does not count one whose browser is gone, however recent its row', async () => {
    const pool = heldBrowsers();
    await withBridge(pool.provider, async (app) => {
      expect((await open(app, 'h_crash', 'msn_1')).statusCode).toBe(201);
      expect((await open(app, 'h_crash', 'msn_2')).statusCode).toBe(201);
      // Its browser crashed a moment ago; the row still says ACTIVE.
      pool.gone.add(pool.launched[0] ?? '');
      expect((await open(app, 'h_crash', 'msn_3')).statusCode).toBe(201);
    });
  });
});

describe('order of the checks', () => {
  it('a household at its share sending a refused startUrl hears 429, not 400', async () => {
    const provider: BrowserProvider = { ...createSimulatedProvider(), name: 'cloud' };
    await withBridge(
      provider,
      async (app) => {
        expect((await open(app, 'h_full', 'msn_1')).statusCode).toBe(201);
        const refused = await open(app, 'h_full', 'msn_2', 'http://169.254.169.254/latest/meta-data');
        expect(refused.statusCode).toBe(429);
        expect(refused.json().error).toBe('RATE_LIMITED');
        // Below its share the same body is still 400, and takes no place.
        const other = await open(app, 'h_free', 'msn_3', 'http://169.254.169.254/latest/meta-data');
        expect(other.statusCode).toBe(400);
        expect((await open(app, 'h_free', 'msn_3')).statusCode).toBe(201);
      },
      { BROWSER_MAX_SESSIONS_PER_HOUSEHOLD: '1' },
    );
  });
});

describe('sessions of other bridge processes', () => {
  it('counts a local session another live bridge process holds, which this process’s pool cannot see', async () => {
    const { createHouseholdShareGate } = await import('../src/flows/household-share-gate.ts');
    const now = new Date().toISOString();
    const row = (id: string, browserInstance: string) =>
      ({
        sessionId: id,
        providerSessionId: `p_${id}`,
        browserInstance,
        updatedAt: now,
        currentUrl: null,
      }) as never;
    const open = [row('bs_1', 'bbi_other'), row('bs_2', 'bbi_other')];
    const gate = (instanceId: string) =>
      createHouseholdShareGate({
        sessions: { openIn: async () => open, openOf: async () => [] } as never,
        // The local pool of this process holds none of them.
        provider: { ...createSimulatedProvider(), name: 'local', holds: () => false },
        share: { max: 2, maxPerUser: 5, idleMs: 600_000 },
        instanceId,
      });
    await expect(gate('bbi_me').enter('h_1', 'usr_1')).rejects.toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
    });
    // The same rows stamped with this process's id: the pool's word decides, and it holds none.
    const leave = await gate('bbi_other').enter('h_1', 'usr_1');
    leave();
  });
});
