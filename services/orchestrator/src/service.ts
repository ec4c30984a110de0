import { defineService } from '@hs/service-kit';
import { createStore, storeConfigFromEnv } from '@hs/store';
import { buildApp } from './app.ts';
import { loadOrchestratorConfig } from './config.ts';

/** The orchestrator service: its settings, and how its app is put together from them. */
export const service = defineService({
  service: 'orchestrator',
  loadConfig: (env) => loadOrchestratorConfig(env),
  build: async (config, logger, lifecycle) => {
    // Before the store opens: a missing credential is a configuration error, refused in one line.
    // The Google auth library loads only for the Gemini agent (the stub needs none of it).
    const geminiAuthClient =
      config.agent.backend === 'gemini'
        ? await (await import('./adapters/models/gemini-credentials.ts')).resolveGeminiCredentials()
        : undefined;
    const store = createStore(storeConfigFromEnv({ service: 'orchestrator', ...config.persistence }));
    const app = await buildApp({ config, store, logger, ...(geminiAuthClient ? { geminiAuthClient } : {}) });
    // Last, after the app's onClose hooks: workers and outboxes still write while they stop.
    lifecycle.onShutdown(() => store.close());
    return app;
  },
});
