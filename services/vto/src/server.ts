import { runService } from '@hs/service-kit';
import { createBlobStorageFromSettings } from '@hs/storage';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadVtoConfig } from './config.ts';

await runService({
  service: 'vto',
  loadConfig: () => loadVtoConfig(),
  build: async (config, logger) => {
    const store = createStore(storeConfigFromEnv({ service: 'vto', ...config.persistence }));
    // vto signs no URLs; local storage is shared with wardrobe through ARTIFACT_LOCAL_DIR.
    const storage = createBlobStorageFromSettings(config.storage, {
      publicBaseUrl: config.publicBaseUrl,
    });
    const app = await buildApp({ config, store, storage, logger });
    app.addHook('onClose', () => store.close());
    return app;
  },
});
