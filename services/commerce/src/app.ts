import { createServiceApp, registerInternalAuth, type ServiceApp } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import type { CommerceConfig } from './config.ts';

export interface CommerceDeps {
  config: CommerceConfig;
  store: Store;
  logger?: Logger | false;
}

export async function buildApp(deps: CommerceDeps): Promise<ServiceApp> {
  const { config, store } = deps;
  const app = await createServiceApp({
    service: 'commerce',
    description: 'The commerce service of the household styling backend.',
    logger: deps.logger ?? false,
    bodyLimit: config.bodyLimit,
    requestTimeoutMs: config.requestTimeoutMs,
    corsOrigins: config.corsOrigins,
    readiness: { store: () => store.ping() },
  });
  registerInternalAuth(app, { token: config.internalToken });
  return app;
}
