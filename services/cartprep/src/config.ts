import { type BaseConfig, loadConfig } from '@hs/service-kit';

/** Settings of the cartprep service on top of the shared ones (see README, configuration table). */
export function loadCartprepConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig('cartprep', () => ({}), env);
}

export type CartprepConfig = ReturnType<typeof loadCartprepConfig> & BaseConfig;
