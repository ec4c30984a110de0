import { createAddressGuard, createBrowserPool, DEFAULT_OPEN_TIMEOUT_MS } from '@hs/browser';
import { isDomainAllowed } from '@hs/contracts';
import { createBlobStorageFromSettings } from '@hs/storage';
import type { CartprepConfig } from '../config.ts';
import { createBrowserExecutor } from './browser-executor/browser-executor.ts';
import type { CartExecutor } from './cart-executor.ts';
import { createSimulatedExecutor } from './simulated-executor.ts';

/** The executor CARTPREP_EXECUTOR names, and how to release what it holds (the browser). */
export function createCartExecutor(config: CartprepConfig): {
  executor: CartExecutor;
  close(): Promise<void>;
} {
  if (config.cartprep.executor === 'simulated')
    return {
      executor: createSimulatedExecutor({ honourUrlParams: config.cartprep.simulationParams }),
      close: async () => {},
    };
  const settings = config.cartprep;
  const pool = createBrowserPool({
    guard: createAddressGuard({ allowPrivateHosts: settings.allowPrivateHosts }),
    // One browser context per running job; a job holds it for its whole deadline at most.
    maxSessions: settings.concurrency,
    idleMs: settings.jobTimeoutMs + 5_000,
    executablePath: settings.chromiumPath,
    // A browser that cannot open a context within this is frozen: killed, the job retried.
    openTimeoutMs: Math.min(DEFAULT_OPEN_TIMEOUT_MS, settings.jobTimeoutMs),
  });
  const storage = createBlobStorageFromSettings(config.storage, { publicBaseUrl: config.publicBaseUrl });
  const executor = createBrowserExecutor({
    pool,
    allowHost: (host) => (settings.allowlist ? isDomainAllowed(host, settings.allowlist) : false),
    saveScreenshot: async (job, png) => {
      const key = `households/${job.householdId}/cartprep/${job.jobId}/attempt-${job.attempts}.png`;
      await storage.put(key, png, 'image/png');
      return storage.refFor(key);
    },
  });
  return { executor, close: () => pool.closeAll() };
}
