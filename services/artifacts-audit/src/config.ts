import { type BaseConfig, envNumber, loadConfig } from '@hs/service-kit';
import { storageEnvShape, storageSettingsFrom } from '@hs/storage';
import { z } from 'zod';

/** Settings of the artifacts-audit service on top of the shared ones (see README, configuration table). */
export function loadArtifactsAuditConfig(env: NodeJS.ProcessEnv = process.env) {
  const base = loadConfig(
    'artifacts-audit',
    () => ({
      ...storageEnvShape(),
      ARTIFACT_SIGNED_URL_TTL_SECONDS: envNumber(z.number().int().min(60).max(604_800)).default(3600),
    }),
    env,
  );
  const raw = base.raw;
  return {
    ...base,
    /** Artifact data and recordings; its ARTIFACT_SIGNING_SECRET also signs the content links. */
    storage: storageSettingsFrom(raw, base.appEnv),
    artifacts: { signedUrlTtlSeconds: raw.ARTIFACT_SIGNED_URL_TTL_SECONDS },
  };
}

export type ArtifactsAuditConfig = ReturnType<typeof loadArtifactsAuditConfig> & BaseConfig;
