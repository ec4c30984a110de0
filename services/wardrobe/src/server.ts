import { runService } from '@hs/service-kit';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadWardrobeConfig } from './config.ts';

await runService({
  service: 'wardrobe',
  loadConfig: () => loadWardrobeConfig(),
  build: async (config, logger) => {
    const store = createStore(storeConfigFromEnv({ service: 'wardrobe', ...config.persistence }));
    const app = await buildApp({ config, store, logger });
    app.addHook('onClose', () => store.close());
    return app;
  },
});
