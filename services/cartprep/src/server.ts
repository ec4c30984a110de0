import { runService } from '@hs/service-kit';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadCartprepConfig } from './config.ts';

await runService({
  service: 'cartprep',
  loadConfig: () => loadCartprepConfig(),
  build: async (config, logger) => {
    const store = createStore(storeConfigFromEnv({ service: 'cartprep', ...config.persistence }));
    const app = await buildApp({ config, store, logger });
    app.addHook('onClose', () => store.close());
    return app;
  },
});
