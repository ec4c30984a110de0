import { reapOrphanedChromium } from '@hs/browser';
import { defineService } from '@hs/service-kit';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadCartprepConfig } from './config.ts';

/** The cartprep service: its settings, and how its app is put together from them. */
export const service = defineService({
  service: 'cartprep',
  loadConfig: (env) => loadCartprepConfig(env),
  build: async (config, logger, lifecycle) => {
    if (config.cartprep.executor === 'browser') {
      const reaped = reapOrphanedChromium();
      if (reaped) logger.warn({ reaped }, 'ended browsers left by a previous process');
    }
    const store = createStore(storeConfigFromEnv({ service: 'cartprep', ...config.persistence }));
    const app = await buildApp({ config, store, logger });
    // Last, after the app's onClose hooks: workers and outboxes still write while they stop.
    lifecycle.onShutdown(() => store.close());
    return app;
  },
});
