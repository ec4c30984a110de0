import { runService } from '@hs/service-kit';
import { createBlobStorage } from '@hs/storage';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadVtoConfig } from './config.ts';

await runService({
  service: 'vto',
  loadConfig: () => loadVtoConfig(),
  build: async (config, logger) => {
    const store = createStore(storeConfigFromEnv({ service: 'vto', ...config.persistence }));
    const { backend, localDir, bucket, signingSecret } = config.storage;
    const storage =
      backend === 'cloudstore'
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
