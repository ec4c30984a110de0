import { createServiceApp, registerInternalAuth, type ServiceApp } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import type { ArtifactsAuditConfig } from './config.ts';

export interface ArtifactsAuditDeps {
  config: ArtifactsAuditConfig;
  store: Store;
  logger?: Logger | false;
}

export async function buildApp(deps: ArtifactsAuditDeps): Promise<ServiceApp> {
  const { config, store } = deps;
  const app = await createServiceApp({
    service: 'artifacts-audit',
    description: 'The artifacts-audit service of the household styling backend.',
    logger: deps.logger ?? false,
    bodyLimit: config.bodyLimit,
    requestTimeoutMs: config.requestTimeoutMs,
    corsOrigins: config.corsOrigins,
    readiness: { store: () => store.ping() },
  });
  registerInternalAuth(app, { token: config.internalToken });
  return app;
}
