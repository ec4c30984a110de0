import { defineService } from '@hs/service-kit';
import { createBlobStorageFromSettings } from '@hs/storage';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadArtifactsAuditConfig } from './config.ts';

/** The artifacts-audit service: its settings, and how its app is put together from them. */
export const service = defineService({
  service: 'artifacts-audit',
  loadConfig: (env) => loadArtifactsAuditConfig(env),
  build: async (config, logger, lifecycle) => {
    const store = createStore(storeConfigFromEnv({ service: 'artifacts-audit', ...config.persistence }));
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
