// When may one bridge process take another's local browser sessions for dead? Only on evidence
// measured here: a registration left unrenewed for a whole lease by this process's own clock,
// while this process could write all along, or a dead pid in this very machine and pid namespace.
import { createStore, type Store, StoreUnavailableError } from '@hs/store';
import { describe, expect, it } from 'vitest';
import { createBridgeInstances } from '../src/adapters/bridge-instances.ts';

const LEASE = 1000;

/** A store whose writes to the instances collection can be made to fail (a blip, a partition). */
function flakyStore() {
  const inner = createStore({ backend: 'inmemory' });
  const failing = new Set<string>();
  const store: Store = {
    ...inner,
    collection: ((name: string, options?: never) => {
      const c = inner.collection(name, options);
      return {
        ...c,
        put: async (id: string, doc: never) => {
          if (failing.has(id)) throw new StoreUnavailableError('FIRESTORE_TIMEOUT', 'Storage did not answer');
          return c.put(id, doc);
        },
      };
    }) as Store['collection'],
  };
  return { store, failing };
}

describe('bridge instances', () => {
  it('keeps a live replica with the same hostname and pid but another machine or pid namespace alive', async () => {
    const { store } = flakyStore();
    let t = 0;
    const now = () => t;
    const identity = { host: 'bridge', pid: 1 };
    const a = createBridgeInstances(store, {
      leaseMs: LEASE,
      now,
      identity: { ...identity, machine: 'boot-1/pid:[1]', processId: 'container-a' },
    });
    const b = createBridgeInstances(store, {
      leaseMs: LEASE,
      now,
      identity: { ...identity, machine: 'boot-1/pid:[2]', processId: 'container-b' },
    });
    await a.start(() => {});
    await b.start(() => {});
    for (let step = 0; step < 10; step++) {
      t += LEASE / 2;
      await a.start(() => {}); // a renewal
      await b.start(() => {});
      expect(await b.isGone(a.id)).toBe(false);
    }
    await a.retire();
    await b.retire();
  });

  it('takes a holder for gone only after a whole lease unrenewed, counted from when this process could write again', async () => {
    const { store, failing } = flakyStore();
    let t = 0;
    const now = () => t;
    const a = createBridgeInstances(store, { leaseMs: LEASE, now, identity: { machine: null } });
    const b = createBridgeInstances(store, { leaseMs: LEASE, now, identity: { machine: null } });
    await a.start(() => {});
    await b.start(() => {});
    expect(await b.isGone(a.id)).toBe(false);
    // A store outage: neither can renew. b sees a unchanged, but its own writes fail too.
    failing.add(a.id).add(b.id);
    for (let step = 0; step < 6; step++) {
      t += LEASE / 2;
      await a.start(() => {});
      await b.start(() => {});
      expect(await b.isGone(a.id)).toBe(false);
    }
    // The store is back for b first: a still counts as alive for a whole lease from then.
    failing.delete(b.id);
    await b.start(() => {});
    t += LEASE / 2;
    expect(await b.isGone(a.id)).toBe(false);
    failing.delete(a.id);
    await a.start(() => {});
    t += LEASE;
    expect(await b.isGone(a.id)).toBe(false);
    // a really stops (killed): unrenewed for a whole lease while b renews.
    failing.add(a.id);
    t += LEASE / 2;
    await b.start(() => {});
    expect(await b.isGone(a.id)).toBe(false);
    t += LEASE;
    await b.start(() => {});
    expect(await b.isGone(a.id)).toBe(true);
    // And stays gone: sessions a failed sweep could not end are ended by the next one.
    t += LEASE / 4;
    expect(await b.isGone(a.id)).toBe(true);
    await a.retire().catch(() => {});
    await b.retire();
  });

  it('boots with the store away: no error, no verdicts, registered once the store answers', async () => {
    const { store, failing } = flakyStore();
    let t = 0;
    const now = () => t;
    const a = createBridgeInstances(store, { leaseMs: LEASE, now, identity: { machine: null } });
    failing.add(a.id);
    const errors: unknown[] = [];
    await expect(a.start((err) => errors.push(err))).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    // Unregistered, it ends nobody's sessions, however long a registration it never saw stays away.
    t += LEASE * 5;
    expect(await a.isGone('bbi_unknown')).toBe(false);
    t += LEASE * 5;
    expect(await a.isGone('bbi_unknown')).toBe(false);
    failing.delete(a.id);
    await a.start(() => {});
    expect(await store.collection('browser_bridge_instances').get(a.id)).not.toBeNull();
    await a.retire();
  });

  it('ends at once a holder whose pid no longer runs in this machine and pid namespace', async () => {
    const { store } = flakyStore();
    const machine = 'boot-9/pid:[9]';
    const dead = createBridgeInstances(store, { leaseMs: 60_000, identity: { machine, pid: 2 ** 22 + 7 } });
    const live = createBridgeInstances(store, { leaseMs: 60_000, identity: { machine } });
    await dead.start(() => {});
    await live.start(() => {});
    expect(await live.isGone(dead.id)).toBe(true);
    await dead.retire();
    await live.retire();
  });

  it('takes an app of this very process that stopped renewing for gone after a lease, like any other', async () => {
    const { store, failing } = flakyStore();
    let t = 0;
    const now = () => t;
    const machine = 'boot-3/pid:[3]';
    const a = createBridgeInstances(store, { leaseMs: LEASE, now, identity: { machine } });
    const b = createBridgeInstances(store, { leaseMs: LEASE, now, identity: { machine } });
    await a.start(() => {});
    await b.start(() => {});
    expect(await b.isGone(a.id)).toBe(false);
    failing.add(a.id);
    for (let step = 0; step < 3; step++) {
      t += LEASE / 2;
      await b.start(() => {});
      await b.isGone(a.id);
    }
    expect(await b.isGone(a.id)).toBe(true);
    await b.retire();
  });
});
