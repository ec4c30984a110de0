import { createAddressGuard, createBrowserPool } from '@hs/browser';
import type { BrowserBridgeConfig } from '../config.ts';
import type { BrowserProvider } from './browser-provider.ts';
import { createCloudProvider } from './cloud-provider.ts';
import { createLocalProvider } from './local-provider.ts';
import { createSimulatedProvider } from './simulated-provider.ts';

/** The provider BROWSER_PROVIDER names (config.ts refuses the ones not built). */
/** `onIdle` hears of a local session whose browser was closed for idleness (its id is the session id). */
export function createBrowserProvider(
  config: BrowserBridgeConfig['browser'],
  onIdle: (sessionId: string) => void = () => {},
): BrowserProvider {
  if (config.provider === 'local')
    return createLocalProvider(
      createBrowserPool({
        guard: createAddressGuard({ allowPrivateHosts: config.allowPrivateHosts }),
        maxSessions: config.maxSessions,
        idleMs: config.idleMs,
        executablePath: config.chromiumPath,
        onIdleClose: onIdle,
      }),
    );
  if (config.provider === 'cloud')
    return createCloudProvider({
      apiBaseUrl: config.apiBaseUrl,
      apiKey: config.apiKey ?? '',
      projectId: config.projectId ?? '',
      timeoutMs: config.apiTimeoutMs,
    });
  return createSimulatedProvider();
}
