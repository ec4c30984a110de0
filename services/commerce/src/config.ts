import { type BaseConfig, loadConfig } from '@hs/service-kit';

/** Settings of the commerce service on top of the shared ones (see README, configuration table). */
export function loadCommerceConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig('commerce', () => ({}), env);
}

export type CommerceConfig = ReturnType<typeof loadCommerceConfig> & BaseConfig;
