import { type BaseConfig, ConfigError, isProductionLike, loadConfig } from '@hs/service-kit';
import { z } from 'zod';

/** The development placeholder for ARTIFACT_SIGNING_SECRET; refused in staging and production. */
export const DEV_ARTIFACT_SIGNING_SECRET = 'dev-artifact-signing-secret-placeholder';

/** Settings of the artifacts-audit service on top of the shared ones (see README, configuration table). */
export function loadArtifactsAuditConfig(env: NodeJS.ProcessEnv = process.env) {
  const base = loadConfig(
    'artifacts-audit',
    () => ({
      ARTIFACT_STORAGE_BACKEND: z.enum(['local', 'cloudstore']).default('local'),
      ARTIFACT_LOCAL_DIR: z.string().min(1).default('./.data/artifacts'),
      ARTIFACT_BUCKET: z.string().min(1).optional(),
      ARTIFACT_SIGNING_SECRET: z.string().min(1).default(DEV_ARTIFACT_SIGNING_SECRET),
      ARTIFACT_SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(604_800).default(3600),
    }),
    env,
  );
  const raw = base.raw;
  if (isProductionLike(base.appEnv)) {
    if (
      raw.ARTIFACT_SIGNING_SECRET === DEV_ARTIFACT_SIGNING_SECRET ||
      raw.ARTIFACT_SIGNING_SECRET.startsWith('dev-')
    )
      throw new ConfigError(
        `Configuration error: ARTIFACT_SIGNING_SECRET is a development placeholder, which is not allowed when APP_ENV=${base.appEnv}`,
      );
    if (Buffer.byteLength(raw.ARTIFACT_SIGNING_SECRET) < 32)
      throw new ConfigError(
        'Configuration error: ARTIFACT_SIGNING_SECRET must be at least 32 bytes in staging and production',
      );
  }
  if (raw.ARTIFACT_STORAGE_BACKEND === 'cloudstore' && !raw.ARTIFACT_BUCKET)
    throw new ConfigError(
      'Configuration error: ARTIFACT_BUCKET is required when ARTIFACT_STORAGE_BACKEND=cloudstore',
    );
  return {
    ...base,
    artifacts: {
      storageBackend: raw.ARTIFACT_STORAGE_BACKEND,
      localDir: raw.ARTIFACT_LOCAL_DIR,
      bucket: raw.ARTIFACT_BUCKET,
      signingSecret: raw.ARTIFACT_SIGNING_SECRET,
      signedUrlTtlSeconds: raw.ARTIFACT_SIGNED_URL_TTL_SECONDS,
    },
  };
}

export type ArtifactsAuditConfig = ReturnType<typeof loadArtifactsAuditConfig> & BaseConfig;
