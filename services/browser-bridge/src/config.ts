import { DEFAULT_CHROMIUM_PATH, privateMerchantHosts } from '@hs/browser';
import { BrowserProviderName } from '@hs/contracts';
import {
  type BaseConfig,
  configProblem,
  envBool,
  envList,
  envNumber,
  httpUrl,
  isProductionLike,
  loadConfig,
} from '@hs/service-kit';
import { storageEnvShape, storageSettingsFrom } from '@hs/storage';
import { z } from 'zod';

export const DEV_EVENT_SIGNING_SECRET = 'dev-browser-event-signing-secret';
export const DEV_LIVE_VIEW_SECRET = 'dev-browser-live-view-secret';

/** Settings of the browser-bridge service on top of the shared ones (see README, configuration table). */
export function loadBrowserBridgeConfig(env: NodeJS.ProcessEnv = process.env) {
  const base = loadConfig(
    'browser-bridge',
    (appEnv) => ({
      BROWSER_PROVIDER: BrowserProviderName.default('simulated'),
      BROWSER_API_KEY: z.string().min(1).optional(),
      // http(s) in every APP_ENV, like the other external endpoints (VTO_HTTP_ENDPOINT, OIDC_ISSUER).
      BROWSER_API_BASE_URL: httpUrl().default('https://api.browserbase.com'),
      BROWSER_PROJECT_ID: z.string().min(1).optional(),
      BROWSER_ENFORCE_EVENT_SIGNATURES: envBool(isProductionLike(appEnv)),
      BROWSER_EVENT_SIGNING_SECRET: z.string().min(1).default(DEV_EVENT_SIGNING_SECRET),
      BROWSER_DEFAULT_START_URL: z.url({ protocol: /^https?$/ }).default('https://www.example.com/'),
      BROWSER_MAX_SESSIONS: envNumber(z.number().int().min(1).max(64)).default(4),
      BROWSER_MAX_SESSIONS_PER_HOUSEHOLD: envNumber(z.number().int().min(1).max(64)).default(2),
      BROWSER_MAX_SESSIONS_PER_USER: envNumber(z.number().int().min(1).max(64)).default(2),
      BROWSER_IDLE_TIMEOUT_SECONDS: envNumber(z.number().positive().max(86_400)).default(600),
      BROWSER_CHROMIUM_PATH: z.string().min(1).default(DEFAULT_CHROMIUM_PATH),
      BROWSER_LIVE_VIEW_SECRET: z.string().min(1).default(DEV_LIVE_VIEW_SECRET),
      ALLOW_PRIVATE_MERCHANT_HOSTS: envList(),
      ...storageEnvShape(),
    }),
    env,
  );
  const raw = base.raw;
  if (raw.BROWSER_PROVIDER === 'cloud' && (!raw.BROWSER_API_KEY || !raw.BROWSER_PROJECT_ID))
    configProblem('BROWSER_PROVIDER=cloud needs BROWSER_API_KEY and BROWSER_PROJECT_ID');
  const real = raw.BROWSER_PROVIDER !== 'simulated';
  if (real && isProductionLike(base.appEnv) && raw.BROWSER_LIVE_VIEW_SECRET === DEV_LIVE_VIEW_SECRET)
    configProblem(
      `BROWSER_LIVE_VIEW_SECRET is the development placeholder, which is not allowed when APP_ENV=${base.appEnv}`,
    );
  if (isProductionLike(base.appEnv) && raw.BROWSER_ENFORCE_EVENT_SIGNATURES) {
    if (raw.BROWSER_EVENT_SIGNING_SECRET === DEV_EVENT_SIGNING_SECRET)
      configProblem(
        `BROWSER_EVENT_SIGNING_SECRET is the development placeholder, which is not allowed when APP_ENV=${base.appEnv}`,
      );
  }
  return {
    ...base,
    browser: {
      provider: raw.BROWSER_PROVIDER,
      apiKey: raw.BROWSER_API_KEY,
      apiBaseUrl: raw.BROWSER_API_BASE_URL,
      projectId: raw.BROWSER_PROJECT_ID,
      apiTimeoutMs: base.internalTimeoutMs,
      defaultStartUrl: raw.BROWSER_DEFAULT_START_URL,
      enforceEventSignatures: raw.BROWSER_ENFORCE_EVENT_SIGNATURES,
      eventSigningSecret: raw.BROWSER_EVENT_SIGNING_SECRET,
      maxSessions: raw.BROWSER_MAX_SESSIONS,
      maxSessionsPerHousehold: raw.BROWSER_MAX_SESSIONS_PER_HOUSEHOLD,
      /** Across all the households of a session's owner: one account may guard many households. */
      maxSessionsPerUser: raw.BROWSER_MAX_SESSIONS_PER_USER,
      idleMs: raw.BROWSER_IDLE_TIMEOUT_SECONDS * 1000,
      chromiumPath: raw.BROWSER_CHROMIUM_PATH,
      liveViewSecret: raw.BROWSER_LIVE_VIEW_SECRET,
      allowPrivateHosts: privateMerchantHosts(raw.ALLOW_PRIVATE_MERCHANT_HOSTS, base.appEnv),
    },
    /** Where recordings are written (shared with artifacts-audit, which serves them); real browsers only. */
    storage: real
      ? storageSettingsFrom(raw, base.appEnv)
      : storageSettingsFrom({ ...raw, ARTIFACT_STORAGE_BACKEND: 'local' }, 'dev'),
  };
}

export type BrowserBridgeConfig = ReturnType<typeof loadBrowserBridgeConfig> & BaseConfig;
