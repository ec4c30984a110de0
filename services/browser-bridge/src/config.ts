import { type BaseConfig, loadConfig } from '@hs/service-kit';

/** Settings of the browser-bridge service on top of the shared ones (see README, configuration table). */
export function loadBrowserBridgeConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig('browser-bridge', () => ({}), env);
}

export type BrowserBridgeConfig = ReturnType<typeof loadBrowserBridgeConfig> & BaseConfig;
