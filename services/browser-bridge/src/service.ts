import { reapOrphanedChromium } from '@hs/browser';
import { defineService } from '@hs/service-kit';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadBrowserBridgeConfig } from './config.ts';

/** The browser-bridge service: its settings, and how its app is put together from them. */
export const service = defineService({
  service: 'browser-bridge',
  loadConfig: (env) => loadBrowserBridgeConfig(env),
  build: async (config, logger, lifecycle) => {
    if (config.browser.provider === 'local') {
      const reaped = reapOrphanedChromium();
      if (reaped) logger.warn({ reaped }, 'ended browsers left by a previous process');
    }
    const store = createStore(storeConfigFromEnv({ service: 'browser-bridge', ...config.persistence }));
    const app = await buildApp({ config, store, logger });
    // Last, after the app's onClose hooks: workers and outboxes still write while they stop.
    lifecycle.onShutdown(() => store.close());
    return app;
  },
});
