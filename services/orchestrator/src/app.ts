import { createServiceApp, registerInternalAuth, type ServiceApp } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import type { OrchestratorConfig } from './config.ts';

export interface OrchestratorDeps {
  config: OrchestratorConfig;
  store: Store;
  logger?: Logger | false;
}

export async function buildApp(deps: OrchestratorDeps): Promise<ServiceApp> {
  const { config, store } = deps;
  const app = await createServiceApp({
    service: 'orchestrator',
    description: 'The orchestrator service of the household styling backend.',
    logger: deps.logger ?? false,
    bodyLimit: config.bodyLimit,
    requestTimeoutMs: config.requestTimeoutMs,
    corsOrigins: config.corsOrigins,
    readiness: { store: () => store.ping() },
  });
  registerInternalAuth(app, { token: config.internalToken });
  return app;
}
