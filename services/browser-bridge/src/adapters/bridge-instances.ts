// Which bridge process holds a local session's browser. A `local` browser lives inside the bridge
// process that launched it and dies with it, so a session row is only as alive as its process.
// Each process with the local provider registers itself here (collection
// `browser_bridge_instances`, one document per process: its id, host and pid, and a lease it
// renews) and stamps its sessions with that id (`browserInstance`). Another process may end a
// session (FAILED) only once its holder is known to be gone:
//  - its document is missing (retired on a clean shutdown) or its lease has run out (a killed
//    process stops renewing it; one cut off from the store for a whole lease is taken for dead);
//  - or, on the same host, its pid no longer runs, or is now a different process (a container
//    restarted in place runs the new service under the old pid): caught at once at boot.
// A live replica renews its lease, so replicas sharing one store never end each other's sessions.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Store } from '@hs/store';

export type BridgeInstance = {
  instanceId: string;
  host: string;
  pid: number;
  /** One per Node process: two apps in one process (tests) are told apart from a reused pid. */
  processId: string;
  startedAt: string;
  /** Epoch ms until which the instance counts as alive without renewing. */
  expiresAt: number;
};

/** Default lease of an instance's registration; renewed every third of it. */
export const INSTANCE_LEASE_MS = 30_000;

const PROCESS_ID = randomUUID();

export type InstanceIdentity = { host?: string; pid?: number };

export function createBridgeInstances(
  store: Store,
  options: { leaseMs?: number; identity?: InstanceIdentity; now?: () => number } = {},
) {
  const instances = store.collection<BridgeInstance>('browser_bridge_instances');
  const leaseMs = options.leaseMs ?? INSTANCE_LEASE_MS;
  const now = options.now ?? Date.now;
  const self: Omit<BridgeInstance, 'expiresAt'> = {
    instanceId: `bbi_${randomUUID().replace(/-/g, '')}`,
    host: options.identity?.host ?? hostname(),
    pid: options.identity?.pid ?? process.pid,
    processId: PROCESS_ID,
    startedAt: new Date(now()).toISOString(),
  };
  let timer: NodeJS.Timeout | null = null;

  const renew = () => instances.put(self.instanceId, { ...self, expiresAt: now() + leaseMs });

  return {
    id: self.instanceId,
    leaseMs,
    /** Registers this process and keeps its lease (every third of it) until `retire`. */
    async start(onError: (err: unknown) => void): Promise<void> {
      await renew();
      timer = setInterval(() => void renew().catch(onError), Math.max(10, Math.floor(leaseMs / 3)));
      timer.unref();
    },
    /** A clean shutdown: its browsers end with it, so its sessions may be ended at once. */
    async retire(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await instances.delete(self.instanceId);
    },
    /** Whether the process that held a local browser is gone (and its browser with it). */
    async isGone(instanceId: string): Promise<boolean> {
      if (instanceId === self.instanceId) return false;
      const other = await instances.get(instanceId);
      if (!other || other.expiresAt <= now()) return true;
      if (other.host !== self.host) return false;
      if (other.pid === self.pid) return other.processId !== self.processId;
      return !isAlive(other.pid);
    },
  };
}

export type BridgeInstances = ReturnType<typeof createBridgeInstances>;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
