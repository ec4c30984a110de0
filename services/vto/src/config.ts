import { type BaseConfig, loadConfig } from '@hs/service-kit';

/** Settings of the vto service on top of the shared ones (see README, configuration table). */
export function loadVtoConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig('vto', () => ({}), env);
}

export type VtoConfig = ReturnType<typeof loadVtoConfig> & BaseConfig;
