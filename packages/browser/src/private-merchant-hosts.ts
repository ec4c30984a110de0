// ALLOW_PRIVATE_MERCHANT_HOSTS: the one reading of the setting, for every service that honours it
// (gateway, cartprep, browser-bridge). Kept apart from the browser code so the gateway can read it
// without loading playwright.
import { type AppEnv, configProblem, isProductionLike } from '@hs/service-kit';

/** ALLOW_PRIVATE_MERCHANT_HOSTS as `host:port` entries; refused outright in staging and production. */
export function privateMerchantHosts(raw: readonly string[], appEnv: AppEnv): string[] {
  if (raw.length === 0) return [];
  if (isProductionLike(appEnv))
    configProblem(`ALLOW_PRIVATE_MERCHANT_HOSTS is not allowed when APP_ENV=${appEnv}`);
  for (const entry of raw)
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/i.test(entry))
      configProblem(`ALLOW_PRIVATE_MERCHANT_HOSTS entry "${entry}" must be host:port`);
  return raw.map((e) => e.toLowerCase());
}
