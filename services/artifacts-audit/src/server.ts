import { runService } from '@hs/service-kit';
import { createBlobStorage } from '@hs/storage';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadArtifactsAuditConfig } from './config.ts';

await runService({
  service: 'artifacts-audit',
  loadConfig: () => loadArtifactsAuditConfig(),
  build: async (config, logger) => {
    const store = createStore(storeConfigFromEnv({ service: 'artifacts-audit', ...config.persistence }));
    const { storageBackend, localDir, bucket, signingSecret } = config.artifacts;
    const storage =
      storageBackend === 'cloudstore'
        ? createBlobStorage({ backend: 'cloudstore', bucket: bucket! })
        : createBlobStorage({
            backend: 'local',
            dir: localDir,
            signingSecret,
            publicBaseUrl: config.peers.gateway.baseUrl,
          });
    const app = await buildApp({ config, store, storage, logger });
    app.addHook('onClose', () => store.close());
    return app;
  },
});
