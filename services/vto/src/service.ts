import { defineService } from '@hs/service-kit';
import { createBlobStorageFromSettings } from '@hs/storage';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadVtoConfig } from './config.ts';

/** The vto service: its settings, and how its app is put together from them. */
export const service = defineService({
  service: 'vto',
  loadConfig: (env) => loadVtoConfig(env),
  build: async (config, logger, lifecycle) => {
    const store = createStore(storeConfigFromEnv({ service: 'vto', ...config.persistence }));
    // vto signs no URLs; local storage is shared with wardrobe through ARTIFACT_LOCAL_DIR.
    const storage = createBlobStorageFromSettings(config.storage, {
      publicBaseUrl: config.publicBaseUrl,
      logger,
    });
    const app = await buildApp({ config, store, storage, logger });
    // Last, after the app's onClose hooks: workers and outboxes still write while they stop.
    lifecycle.onShutdown(() => store.close());
    return app;
  },
});
