import { BrowserProviderName } from '@hs/contracts';
import { type BaseConfig, ConfigError, envBool, isProductionLike, loadConfig } from '@hs/service-kit';
import { z } from 'zod';

export const DEV_EVENT_SIGNING_SECRET = 'dev-browser-event-signing-secret';

/** Settings of the browser-bridge service on top of the shared ones (see README, configuration table). */
export function loadBrowserBridgeConfig(env: NodeJS.ProcessEnv = process.env) {
  const base = loadConfig(
    'browser-bridge',
    (appEnv) => ({
      BROWSER_PROVIDER: BrowserProviderName.default('simulated'),
      BROWSER_API_KEY: z.string().min(1).optional(),
      BROWSER_ENFORCE_EVENT_SIGNATURES: envBool(isProductionLike(appEnv)),
      BROWSER_EVENT_SIGNING_SECRET: z.string().min(1).default(DEV_EVENT_SIGNING_SECRET),
      BROWSER_DEFAULT_START_URL: z.url({ protocol: /^https?$/ }).default('https://www.example.com/'),
    }),
    env,
  );
  const raw = base.raw;
  // The CDP providers plug in behind adapters/browser-provider.ts; until then say so at boot.
  if (raw.BROWSER_PROVIDER !== 'simulated')
    throw new ConfigError(
      `Configuration error: BROWSER_PROVIDER=${raw.BROWSER_PROVIDER} is not built yet (use BROWSER_PROVIDER=simulated)`,
    );
  if (isProductionLike(base.appEnv) && raw.BROWSER_ENFORCE_EVENT_SIGNATURES) {
    if (raw.BROWSER_EVENT_SIGNING_SECRET === DEV_EVENT_SIGNING_SECRET)
      throw new ConfigError(
        `Configuration error: BROWSER_EVENT_SIGNING_SECRET is the development placeholder, which is not allowed when APP_ENV=${base.appEnv}`,
      );
  }
  return {
    ...base,
    browser: {
      provider: raw.BROWSER_PROVIDER,
      apiKey: raw.BROWSER_API_KEY,
      defaultStartUrl: raw.BROWSER_DEFAULT_START_URL,
      enforceEventSignatures: raw.BROWSER_ENFORCE_EVENT_SIGNATURES,
      eventSigningSecret: raw.BROWSER_EVENT_SIGNING_SECRET,
    },
  };
}

export type BrowserBridgeConfig = ReturnType<typeof loadBrowserBridgeConfig> & BaseConfig;
