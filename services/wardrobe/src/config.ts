import { type BaseConfig, loadConfig } from '@hs/service-kit';

/** Settings of the wardrobe service on top of the shared ones (see README, configuration table). */
export function loadWardrobeConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig('wardrobe', () => ({}), env);
}

export type WardrobeConfig = ReturnType<typeof loadWardrobeConfig> & BaseConfig;
