import { runService } from '@hs/service-kit';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadOrchestratorConfig } from './config.ts';

await runService({
  service: 'orchestrator',
  loadConfig: () => loadOrchestratorConfig(),
  build: async (config, logger) => {
    const store = createStore(storeConfigFromEnv({ service: 'orchestrator', ...config.persistence }));
    const app = await buildApp({ config, store, logger });
    app.addHook('onClose', () => store.close());
    return app;
  },
});
