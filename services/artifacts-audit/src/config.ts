import { type BaseConfig, loadConfig } from '@hs/service-kit';

/** Settings of the artifacts-audit service on top of the shared ones (see README, configuration table). */
export function loadArtifactsAuditConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig('artifacts-audit', () => ({}), env);
}

export type ArtifactsAuditConfig = ReturnType<typeof loadArtifactsAuditConfig> & BaseConfig;
