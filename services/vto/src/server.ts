import { runService } from '@hs/service-kit';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadVtoConfig } from './config.ts';

await runService({
  service: 'vto',
  loadConfig: () => loadVtoConfig(),
  build: async (config, logger) => {
    const store = createStore(storeConfigFromEnv({ service: 'vto', ...config.persistence }));
    const app = await buildApp({ config, store, logger });
    app.addHook('onClose', () => store.close());
    return app;
  },
});
