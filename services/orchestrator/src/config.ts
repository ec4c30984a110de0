import { type BaseConfig, loadConfig } from '@hs/service-kit';

/** Settings of the orchestrator service on top of the shared ones (see README, configuration table). */
export function loadOrchestratorConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig('orchestrator', () => ({}), env);
}

export type OrchestratorConfig = ReturnType<typeof loadOrchestratorConfig> & BaseConfig;
