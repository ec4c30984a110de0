import { defineService } from '@hs/service-kit';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadGatewayConfig } from './config.ts';

/** The gateway service: its settings, and how its app is put together from them. */
export const service = defineService({
  service: 'gateway',
  loadConfig: (env) => loadGatewayConfig(env),
  build: async (config, logger, lifecycle) => {
    const store = createStore(storeConfigFromEnv({ service: 'gateway', ...config.persistence }));
    const app = await buildApp({ config, store, logger });
    // Last, after the app's onClose hooks: workers and outboxes still write while they stop.
    lifecycle.onShutdown(() => store.close());
    return app;
  },
});
