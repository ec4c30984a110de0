import { createServiceApp, registerInternalAuth, type ServiceApp } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import type { WardrobeConfig } from './config.ts';

export interface WardrobeDeps {
  config: WardrobeConfig;
  store: Store;
  logger?: Logger | false;
}

export async function buildApp(deps: WardrobeDeps): Promise<ServiceApp> {
  const { config, store } = deps;
  const app = await createServiceApp({
    service: 'wardrobe',
    description: 'The wardrobe service of the household styling backend.',
    logger: deps.logger ?? false,
    bodyLimit: config.bodyLimit,
    requestTimeoutMs: config.requestTimeoutMs,
    corsOrigins: config.corsOrigins,
    readiness: { store: () => store.ping() },
  });
  registerInternalAuth(app, { token: config.internalToken });
  return app;
}
