import { runService } from '@hs/service-kit';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadCommerceConfig } from './config.ts';

await runService({
  service: 'commerce',
  loadConfig: () => loadCommerceConfig(),
  build: async (config, logger) => {
    const store = createStore(storeConfigFromEnv({ service: 'commerce', ...config.persistence }));
    const app = await buildApp({ config, store, logger });
    app.addHook('onClose', () => store.close());
    return app;
  },
});
