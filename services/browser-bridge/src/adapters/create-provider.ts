import type { BrowserProviderName } from '@hs/contracts';
import { ConfigError } from '@hs/service-kit';
import type { BrowserProvider } from './browser-provider.ts';
import { createSimulatedProvider } from './simulated-provider.ts';

/** The provider BROWSER_PROVIDER names; config.ts already refuses the ones not built yet. */
export function createBrowserProvider(name: BrowserProviderName): BrowserProvider {
  if (name === 'simulated') return createSimulatedProvider();
  throw new ConfigError(
    `Configuration error: BROWSER_PROVIDER=${name} is not built yet (use BROWSER_PROVIDER=simulated)`,
  );
}
