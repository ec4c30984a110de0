import { runService } from '@hs/service-kit';
import { createBlobStorageFromSettings } from '@hs/storage';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadArtifactsAuditConfig } from './config.ts';

await runService({
  service: 'artifacts-audit',
  loadConfig: () => loadArtifactsAuditConfig(),
  build: async (config, logger) => {
    const store = createStore(storeConfigFromEnv({ service: 'artifacts-audit', ...config.persistence }));
    const storage = createBlobStorageFromSettings(config.storage, {
      publicBaseUrl: config.publicBaseUrl,
    });
    const app = await buildApp({ config, store, storage, logger });
    app.addHook('onClose', () => store.close());
    return app;
  },
});
