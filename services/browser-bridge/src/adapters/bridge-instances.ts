// Which bridge process holds a local session's browser. A `local` browser lives inside the bridge
// process that launched it and dies with it, so a session row is only as alive as its process.
// Each process with the local provider registers itself here (collection
// `browser_bridge_instances`, one document per process: its id, host, pid, the machine and pid
// namespace it runs in, and a lease it renews) and stamps its sessions with that id
// (`browserInstance`). Another process may end a session (FAILED) only once its holder is known
// to be gone:
//  - it retired (a clean shutdown marks its registration; its browsers ended with it);
//  - its registration has not changed (not renewed, or missing: never written while the store
//    was away) for a whole lease (the longer of the two processes' leases), as this process's own
//    clock measures it, while this process's own renewals kept succeeding. Clocks of other hosts
//    are never compared for this (only the purge below does, a day past a lease), and a store
//    outage that stopped everyone's renewals is no evidence;
//  - or it runs in this very machine and pid namespace (same boot id and namespace, not merely
//    the same hostname: containers sharing a hostname may each be pid 1) and its pid no longer
//    runs or is now another process (a bridge restarted in place): caught at once at boot.
// A live replica renews its lease, so replicas sharing one store never end each other's sessions.
// Every process start adds a registration and nothing else removes one, so `purgeStale` deletes
// those not renewed for INSTANCE_RETENTION_MS (retired or dead processes; see there).
import { randomUUID } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { isAlive } from '@hs/browser';
import { type CollectionOptions, deleteExpired, type Store } from '@hs/store';

export type BridgeInstance = {
  instanceId: string;
  host: string;
  pid: number;
  /** The kernel boot and pid namespace this process runs in (null where unknown). */
  machine: string | null;
  /** One per Node process: two apps in one process (tests) are told apart from a reused pid. */
  processId: string;
  startedAt: string;
  /** When the holder last renewed, by its own clock: only ever compared for change. */
  expiresAt: number;
  /** The holder's lease: it renews at least every third of it. */
  leaseMs?: number;
  /** Set on a clean shutdown: its browsers ended with it. */
  retired?: boolean;
};

/** Default lease of an instance's registration; renewed every third of it. */
export const INSTANCE_LEASE_MS = 30_000;

/**
 * How long a registration is kept after its last renewal's lease ran out. It is read only to
 * judge the open sessions stamped with it, which the orphan sweep ends within a lease or so of
 * its holder stopping (at once when it retired); a day is far past that and past any clock skew
 * between hosts (the purge compares this host's clock with the holder's expiresAt).
 */
export const INSTANCE_RETENTION_MS = 24 * 3600_000;

/** The purge's range query on expiresAt (a crash-looping bridge leaves a registration per start). */
export const BRIDGE_INSTANCE_COLLECTIONS = {
  browser_bridge_instances: { indexes: [{ fields: ['expiresAt'] }] },
} satisfies Record<string, CollectionOptions>;

const PROCESS_ID = randomUUID();

/** Boot id and pid namespace: two processes with equal values see each other's pids. */
function thisMachine(): string | null {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const pidNamespace = readlinkSync('/proc/self/ns/pid');
    return boot && pidNamespace ? `${boot}/${pidNamespace}` : null;
  } catch {
    return null;
  }
}

export type InstanceIdentity = { host?: string; pid?: number; machine?: string | null; processId?: string };

export function createBridgeInstances(
  store: Store,
  options: { leaseMs?: number; identity?: InstanceIdentity; now?: () => number } = {},
) {
  const instances = store.collection<BridgeInstance>(
    'browser_bridge_instances',
    BRIDGE_INSTANCE_COLLECTIONS.browser_bridge_instances,
  );
  const leaseMs = options.leaseMs ?? INSTANCE_LEASE_MS;
  const now = options.now ?? Date.now;
  const self: Omit<BridgeInstance, 'expiresAt'> = {
    instanceId: `bbi_${randomUUID().replace(/-/g, '')}`,
    host: options.identity?.host ?? hostname(),
    pid: options.identity?.pid ?? process.pid,
    machine: options.identity?.machine === undefined ? thisMachine() : options.identity.machine,
    processId: options.identity?.processId ?? PROCESS_ID,
    startedAt: new Date(now()).toISOString(),
  };
  let timer: NodeJS.Timeout | null = null;
  /** Since when this process's own renewals have all succeeded (null: the last one failed). */
  let renewingSince: number | null = null;
  /** Each other holder's registration as last read, since when it has read so here, and the verdict. */
  const seen = new Map<string, { mark: string; since: number; leaseMs: number; gone?: true }>();

  const renew = async () => {
    try {
      await instances.put(self.instanceId, { ...self, expiresAt: now() + leaseMs, leaseMs });
      renewingSince ??= now();
    } catch (err) {
      renewingSince = null;
      throw err;
    }
  };

  return {
    id: self.instanceId,
    leaseMs,
    /**
     * Registers this process and keeps its lease (every third of it) until `retire`. A store
     * away at boot does not stop the bridge: the registration is tried again on the timer, and
     * meanwhile this process ends nobody's sessions (see isGone).
     */
    async start(onError: (err: unknown) => void): Promise<void> {
      if (timer) clearInterval(timer);
      timer = setInterval(() => void renew().catch(onError), Math.max(10, Math.floor(leaseMs / 3)));
      timer.unref();
      await renew().catch(onError);
    },
    /** A clean shutdown: its browsers end with it; the others end its sessions after a lease. */
    async retire(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      // Marked, not deleted: a missing registration may be one not written yet (the store away
      // at boot), which is no evidence of death; a retired one is.
      await instances.put(self.instanceId, { ...self, expiresAt: now(), leaseMs, retired: true });
    },
    /**
     * Deletes up to `batch` registrations whose lease ran out more than INSTANCE_RETENTION_MS
     * ago, oldest first; returns how many. A live process renews every third of its lease (and
     * re-puts a registration that went missing), so only retired or dead ones qualify; each
     * delete re-checks atomically, so one renewed meanwhile stays.
     */
    purgeStale(at = now(), batch = 200): Promise<number> {
      return deleteExpired(instances, {
        field: 'expiresAt',
        idOf: (i) => i.instanceId,
        now: at - INSTANCE_RETENTION_MS,
        batch,
      });
    },
    /** Whether the process that held a local browser is gone (and its browser with it). */
    async isGone(instanceId: string): Promise<boolean> {
      if (instanceId === self.instanceId) return false;
      const other = await instances.get(instanceId);
      if (other?.retired) return true;
      if (other && self.machine && other.machine === self.machine) {
        // Our own pid: another process only if it was an earlier one (restarted in place).
        if (other.pid === self.pid ? other.processId !== self.processId : !isAlive(other.pid)) return true;
      }
      const at = now();
      const mark = other ? String(other.expiresAt) : 'missing';
      const last = seen.get(instanceId);
      // Once gone, gone while nothing changes: sessions a failed sweep left are ended by the next.
      if (last?.gone && last.mark === mark) return true;
      if (!last || last.mark !== mark) {
        // Judged by the longer of the two leases: a holder renewing less often is not late.
        const lease = Math.max(leaseMs, other?.leaseMs ?? last?.leaseMs ?? leaseMs);
        seen.set(instanceId, { mark, since: at, leaseMs: lease });
        return false;
      }
      // Unchanged for a whole lease, counted from when this process could itself write all along.
      if (renewingSince === null) return false;
      if (at - Math.max(last.since, renewingSince) < last.leaseMs) return false;
      last.gone = true;
      return true;
    },
  };
}

export type BridgeInstances = ReturnType<typeof createBridgeInstances>;
