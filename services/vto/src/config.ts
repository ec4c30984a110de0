import { type BaseConfig, configProblem, envNumber, httpUrl, loadConfig } from '@hs/service-kit';
import { storageEnvShape, storageSettingsFrom } from '@hs/storage';
import { z } from 'zod';

const MIB = 1024 * 1024;

/** Settings of the vto service on top of the shared ones (see README, configuration table). */
export function loadVtoConfig(env: NodeJS.ProcessEnv = process.env) {
  const base = loadConfig(
    'vto',
    () => ({
      VTO_INFERENCE_BACKEND: z.enum(['simulated', 'http', 'inline']).default('simulated'),
      VTO_HTTP_ENDPOINT: httpUrl().optional(),
      VTO_HTTP_AUTH_TOKEN: z.string().min(1).optional(),
      VTO_HTTP_TIMEOUT_SECONDS: envNumber(z.number().positive().max(600)).default(60),
      VTO_FETCH_TIMEOUT_SECONDS: envNumber(z.number().positive().max(120)).default(10),
      VTO_MAX_IMAGE_BYTES: envNumber(
        z
          .number()
          .int()
          .positive()
          .max(50 * MIB),
      ).default(10 * MIB),
      VTO_WORKER_CONCURRENCY: envNumber(z.number().int().min(1).max(32)).default(2),
      VTO_MAX_ACTIVE_JOBS_PER_HOUSEHOLD: envNumber(z.number().int().min(1).max(1000)).default(5),
      VTO_MAX_ACTIVE_JOBS_PER_USER: envNumber(z.number().int().min(1).max(1000)).default(5),
      VTO_WORKER_POLL_MS: envNumber(z.number().int().min(10).max(60_000)).default(1000),
      // The same storage settings as the services that write images, so `local://` refs of
      // wardrobe images resolve when the services share ARTIFACT_LOCAL_DIR.
      ...storageEnvShape(),
    }),
    env,
  );
  const raw = base.raw;
  if (raw.VTO_INFERENCE_BACKEND === 'http' && !raw.VTO_HTTP_ENDPOINT)
    configProblem('VTO_HTTP_ENDPOINT is required when VTO_INFERENCE_BACKEND=http');
  return {
    ...base,
    storage: storageSettingsFrom(raw, base.appEnv),
    vto: {
      backend: raw.VTO_INFERENCE_BACKEND,
      http: {
        endpoint: raw.VTO_HTTP_ENDPOINT ?? null,
        authToken: raw.VTO_HTTP_AUTH_TOKEN ?? null,
        timeoutMs: raw.VTO_HTTP_TIMEOUT_SECONDS * 1000,
      },
      fetchTimeoutMs: raw.VTO_FETCH_TIMEOUT_SECONDS * 1000,
      maxImageBytes: raw.VTO_MAX_IMAGE_BYTES,
      concurrency: raw.VTO_WORKER_CONCURRENCY,
      maxActiveJobsPerHousehold: raw.VTO_MAX_ACTIVE_JOBS_PER_HOUSEHOLD,
      /** Across all the caller's households: one account may have many. */
      maxActiveJobsPerUser: raw.VTO_MAX_ACTIVE_JOBS_PER_USER,
      pollIntervalMs: raw.VTO_WORKER_POLL_MS,
    },
  };
}

export type VtoConfig = ReturnType<typeof loadVtoConfig> & BaseConfig;
export type VtoSettings = VtoConfig['vto'];
