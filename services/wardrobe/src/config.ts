import { type BaseConfig, ConfigError, isProductionLike, loadConfig } from '@hs/service-kit';
import { z } from 'zod';

const MIB = 1024 * 1024;
export const DEV_UPLOAD_SIGNING_SECRET = 'dev-upload-signing-secret-placeholder';

/** Settings of the wardrobe service on top of the shared ones (see README, configuration table). */
export function loadWardrobeConfig(env: NodeJS.ProcessEnv = process.env) {
  const base = loadConfig(
    'wardrobe',
    () => ({
      ARTIFACT_STORAGE_BACKEND: z.enum(['local', 'cloudstore']).default('local'),
      ARTIFACT_LOCAL_DIR: z.string().min(1).default('./.data/artifacts'),
      ARTIFACT_BUCKET: z.string().min(1).optional(),
      ARTIFACT_STORAGE_API_ENDPOINT: z.url().optional(),
      GOOGLE_CLOUD_PROJECT: z.string().min(1).optional(),
      UPLOAD_SIGNING_SECRET: z.string().min(1).default(DEV_UPLOAD_SIGNING_SECRET),
      /** Where clients reach `/api/v1/uploads/...`: the gateway (defaults to GATEWAY_BASE_URL). */
      PUBLIC_BASE_URL: z.url().optional(),
      UPLOAD_MAX_BYTES: z.coerce
        .number()
        .int()
        .positive()
        .max(100 * MIB)
        .default(10 * MIB),
      UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(30).max(604_800).default(900),
      CURATION_BACKEND: z.enum(['local', 'disabled']).default('local'),
    }),
    env,
  );
  const raw = base.raw;
  if (
    isProductionLike(base.appEnv) &&
    (raw.UPLOAD_SIGNING_SECRET.startsWith('dev-') || Buffer.byteLength(raw.UPLOAD_SIGNING_SECRET) < 32)
  )
    throw new ConfigError(
      `Configuration error: UPLOAD_SIGNING_SECRET must be a 32+ byte secret, not a development placeholder, when APP_ENV=${base.appEnv}`,
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
      apiEndpoint: raw.ARTIFACT_STORAGE_API_ENDPOINT,
      projectId: raw.GOOGLE_CLOUD_PROJECT,
      signingSecret: raw.UPLOAD_SIGNING_SECRET,
      publicBaseUrl: (raw.PUBLIC_BASE_URL ?? base.peers.gateway.baseUrl).replace(/\/$/, ''),
    },
    uploads: { maxBytes: raw.UPLOAD_MAX_BYTES, urlTtlSeconds: raw.UPLOAD_URL_TTL_SECONDS },
    curation: { backend: raw.CURATION_BACKEND },
  };
}

export type WardrobeConfig = ReturnType<typeof loadWardrobeConfig> & BaseConfig;
