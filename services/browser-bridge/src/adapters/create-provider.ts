import { createAddressGuard, createBrowserPool, DEFAULT_OPEN_TIMEOUT_MS } from '@hs/browser';
import type { BrowserBridgeConfig } from '../config.ts';
import type { BrowserProvider } from './browser-provider.ts';
import { createCloudProvider } from './cloud-provider.ts';
import { createLocalProvider } from './local-provider.ts';
import { createSimulatedProvider } from './simulated-provider.ts';

/** The provider BROWSER_PROVIDER names (config.ts refuses the ones not built). */
/**
 * `onIdle` hears of a local session whose browser was closed for idleness, `onLost` of one whose
 * browser ended on its own (crash, killed); the id is the session id.
 */
export function createBrowserProvider(
  config: BrowserBridgeConfig['browser'],
  onIdle: (sessionId: string) => void = () => {},
  onLost: (sessionId: string) => void = () => {},
): BrowserProvider {
  if (config.provider === 'local')
    return createLocalProvider(
      createBrowserPool({
        guard: createAddressGuard({ allowPrivateHosts: config.allowPrivateHosts }),
        maxSessions: config.maxSessions,
        idleMs: config.idleMs,
        executablePath: config.chromiumPath,
        onIdleClose: onIdle,
        onLost,
        // The same bound as cart-prep's: a browser that cannot open a context by then is frozen
        // and killed, and the create fails instead of finishing long after its caller left.
        openTimeoutMs: DEFAULT_OPEN_TIMEOUT_MS,
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
