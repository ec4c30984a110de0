import { defineService } from '@hs/service-kit';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadCommerceConfig } from './config.ts';

/** The commerce service: its settings, and how its app is put together from them. */
export const service = defineService({
  service: 'commerce',
  loadConfig: (env) => loadCommerceConfig(env),
  build: async (config, logger, lifecycle) => {
    const store = createStore(storeConfigFromEnv({ service: 'commerce', ...config.persistence }));
    const app = await buildApp({ config, store, logger });
    // Last, after the app's onClose hooks: workers and outboxes still write while they stop.
    lifecycle.onShutdown(() => store.close());
    return app;
  },
});
