import { type BaseConfig, ConfigError, loadConfig } from '@hs/service-kit';
import { z } from 'zod';

const MIB = 1024 * 1024;

/** Settings of the vto service on top of the shared ones (see README, configuration table). */
export function loadVtoConfig(env: NodeJS.ProcessEnv = process.env) {
  const base = loadConfig(
    'vto',
    () => ({
      VTO_INFERENCE_BACKEND: z.enum(['simulated', 'http', 'inline']).default('simulated'),
      VTO_HTTP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
      VTO_HTTP_AUTH_TOKEN: z.string().min(1).optional(),
      VTO_HTTP_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(60),
      VTO_FETCH_TIMEOUT_SECONDS: z.coerce.number().positive().max(120).default(10),
      VTO_MAX_IMAGE_BYTES: z.coerce
        .number()
        .int()
        .positive()
        .max(50 * MIB)
        .default(10 * MIB),
      VTO_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
      VTO_WORKER_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
      // Same variables and defaults as the services that write images, so `local://` refs of
      // wardrobe images resolve when the services share ARTIFACT_LOCAL_DIR.
      ARTIFACT_STORAGE_BACKEND: z.enum(['local', 'cloudstore']).default('local'),
      ARTIFACT_LOCAL_DIR: z.string().min(1).default('./.data/artifacts'),
      ARTIFACT_BUCKET: z.string().min(1).optional(),
      // vto signs no uploads; the local backend still needs a secret to be constructed.
      ARTIFACT_SIGNING_SECRET: z.string().min(1).default('dev-artifact-signing-secret-placeholder'),
    }),
    env,
  );
  const raw = base.raw;
  if (raw.VTO_INFERENCE_BACKEND === 'http' && !raw.VTO_HTTP_ENDPOINT)
    throw new ConfigError(
      'Configuration error: VTO_HTTP_ENDPOINT is required when VTO_INFERENCE_BACKEND=http',
    );
  if (raw.ARTIFACT_STORAGE_BACKEND === 'cloudstore' && !raw.ARTIFACT_BUCKET)
    throw new ConfigError(
      'Configuration error: ARTIFACT_BUCKET is required when ARTIFACT_STORAGE_BACKEND=cloudstore',
    );
  return {
    ...base,
    storage: {
      backend: raw.ARTIFACT_STORAGE_BACKEND,
      localDir: raw.ARTIFACT_LOCAL_DIR,
      bucket: raw.ARTIFACT_BUCKET,
      signingSecret: raw.ARTIFACT_SIGNING_SECRET,
    },
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
      pollIntervalMs: raw.VTO_WORKER_POLL_MS,
    },
  };
}

export type VtoConfig = ReturnType<typeof loadVtoConfig> & BaseConfig;
export type VtoSettings = VtoConfig['vto'];
