// Every start of a local bridge process adds a registration (browser_bridge_instances) and
// nothing else ever removes one: those not renewed for a day (retired or dead processes) are
// purged hourly. A live one renews, and a purge never takes it. Real sqlite throughout.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore, type Store } from '@hs/store';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type BridgeInstance,
  createBridgeInstances,
  INSTANCE_RETENTION_MS,
} from '../src/adapters/bridge-instances.ts';
import { createSimulatedProvider } from '../src/adapters/simulated-provider.ts';
import { buildApp } from '../src/app.ts';
import { loadBrowserBridgeConfig } from '../src/config.ts';
import { fakeMembers } from './harness.ts';

const LEASE = 1000;
const HOUR = 3600_000;
let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bridge-purge-'));
  store = createStore({ backend: 'sqlite', file: join(dir, 'browser-bridge.sqlite') });
});
afterEach(async () => {
  vi.useRealTimers();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const registrations = async () =>
  (await store.collection<BridgeInstance>('browser_bridge_instances').query({ limit: 1000 })).items;

/** A process registered at `t0` with its own clock, then retired at `retiredAt` (or left running). */
async function processAt(clock: { t: number }, n: number) {
  const instances = createBridgeInstances(store, {
    leaseMs: LEASE,
    now: () => clock.t,
    identity: { host: `bridge-${n}`, pid: 1000 + n, machine: `boot/${n}`, processId: `p${n}` },
  });
  await instances.start(() => {});
  return instances;
}

describe('bridge instance registrations: purged a day after their last lease', () => {
  it('deletes retired or dead registrations past a day, keeps recent and live ones, a batch at a time', async () => {
    expect(INSTANCE_RETENTION_MS).toBe(24 * HOUR);
    const clock = { t: 1_000_000_000 };
    const old = [];
    for (let n = 0; n < 3; n++) {
      const instance = await processAt(clock, n);
      clock.t += 60_000;
      await instance.retire(); // a clean shutdown, oldest first
      old.push(instance);
    }
    // old[2] crashed instead: its registration just stopped being renewed (not marked retired).
    await store
      .collection<BridgeInstance>('browser_bridge_instances')
      .update(old[2]!.id, (r) => (r ? ({ ...r, retired: undefined } as never) : null));
    clock.t += 25 * HOUR;
    const recent = await processAt(clock, 10);
    await recent.retire(); // retired an hour before the purge below
    clock.t += HOUR;
    const live = await processAt(clock, 11);
    const before = await registrations();
    expect(before).toHaveLength(5);

    expect(await live.purgeStale(clock.t, 2)).toBe(2);
    expect((await registrations()).map((r) => r.instanceId).sort()).toEqual(
      [old[2]!.id, recent.id, live.id].sort(),
    );
    expect(await live.purgeStale(clock.t, 2)).toBe(1);
    const after = await registrations();
    // What stays is untouched.
    expect(after).toEqual(before.filter((r) => r.instanceId === recent.id || r.instanceId === live.id));
    expect(await live.purgeStale(clock.t)).toBe(0);
    // The recent one goes a day after its lease ended; a live one never (it renews).
    clock.t += 24 * HOUR;
    await live.start(() => {});
    expect(await live.purgeStale(clock.t)).toBe(1);
    expect((await registrations()).map((r) => r.instanceId)).toEqual([live.id]);
    await live.retire();
  });

  it('a purged registration does not make its sessions gone any sooner, and a retired one is still gone', async () => {
    const clock = { t: 1_000_000_000 };
    const dead = await processAt(clock, 1);
    await dead.retire();
    const watcher = await processAt(clock, 2);
    expect(await watcher.isGone(dead.id)).toBe(true);
    clock.t += INSTANCE_RETENTION_MS + LEASE;
    await watcher.start(() => {});
    expect(await watcher.purgeStale(clock.t)).toBe(1);
    // Missing now: judged like one never written, gone after a lease of this process's renewals.
    const fresh = await processAt(clock, 3);
    expect(await fresh.isGone(dead.id)).toBe(false);
    clock.t += LEASE;
    await fresh.start(() => {});
    expect(await fresh.isGone(dead.id)).toBe(true);
    await watcher.retire();
    await fresh.retire();
  });

  it('a local bridge runs the purge hourly', async () => {
    const registrationsOf = store.collection<BridgeInstance>('browser_bridge_instances');
    const stale = {
      instanceId: 'bbi_stale',
      host: 'gone',
      pid: 1,
      machine: null,
      processId: 'p',
      startedAt: new Date(Date.now() - 3 * 24 * HOUR).toISOString(),
      expiresAt: Date.now() - 2 * 24 * HOUR,
      leaseMs: 30_000,
      retired: true,
    } satisfies BridgeInstance;
    await registrationsOf.put(stale.instanceId, stale);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const config = loadBrowserBridgeConfig({
      BROWSER_BRIDGE_INTERNAL_TOKEN: 'test-bridge-token',
      ORCHESTRATOR_INTERNAL_TOKEN: 'test-orchestrator-token',
      ORCHESTRATOR_BASE_URL: 'http://127.0.0.1:9',
      ARTIFACT_LOCAL_DIR: join(dir, 'artifacts'),
    });
    const app = await buildApp({
      config,
      store,
      provider: { ...createSimulatedProvider(), name: 'local', holds: () => false } as never,
      members: fakeMembers(),
    });
    try {
      await app.ready();
      expect((await registrations()).map((r) => r.instanceId)).toContain('bbi_stale');
      vi.advanceTimersByTime(3_600_000);
      await vi.waitFor(async () =>
        expect((await registrations()).map((r) => r.instanceId)).not.toContain('bbi_stale'),
      );
      expect(await registrations()).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
