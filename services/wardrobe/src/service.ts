import { defineService } from '@hs/service-kit';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadWardrobeConfig } from './config.ts';

/** The wardrobe service: its settings, and how its app is put together from them. */
export const service = defineService({
  service: 'wardrobe',
  loadConfig: (env) => loadWardrobeConfig(env),
  build: async (config, logger, lifecycle) => {
    const store = createStore(storeConfigFromEnv({ service: 'wardrobe', ...config.persistence }));
    const app = await buildApp({ config, store, logger });
    // Last, after the app's onClose hooks: workers and outboxes still write while they stop.
    lifecycle.onShutdown(() => store.close());
    return app;
  },
});
