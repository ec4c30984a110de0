import { createPeerClient, createServiceApp, registerInternalAuth, type ServiceApp } from '@hs/service-kit';
import type { BlobStorage } from '@hs/storage';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import { createArtifactRepository } from './adapters/artifact-repository.ts';
import { createAuditLedger } from './adapters/audit-ledger.ts';
import { createContentSigner } from './adapters/content-signer.ts';
import { createMissionDirectory, type MissionDirectory } from './adapters/mission-directory.ts';
import type { ArtifactsAuditConfig } from './config.ts';
import type { ArtifactsAuditContext } from './context.ts';
import { ROUTE_GROUPS } from './routes/index.ts';

export interface ArtifactsAuditDeps {
  config: ArtifactsAuditConfig;
  store: Store;
  /** Where artifact data (and recordings) live; server.ts builds it from ARTIFACT_STORAGE_BACKEND. */
  storage: BlobStorage;
  logger?: Logger | false;
  /** Where missions are looked up; the orchestrator (ORCHESTRATOR_BASE_URL) unless given (tests). */
  missions?: MissionDirectory;
  /** Clock of signed links (tests). */
  now?: () => number;
}

export async function buildApp(
  deps: ArtifactsAuditDeps,
): Promise<ServiceApp & { ctx: ArtifactsAuditContext }> {
  const { config, store, storage } = deps;
  const app = await createServiceApp({
    service: 'artifacts-audit',
    description:
      'Mission artifacts (plans, outcome summaries, transcripts, browser recordings) and the append-only, hash-chained household audit ledger.',
    logger: deps.logger ?? false,
    config,
    readiness: { store: () => store.ping() },
  });
  registerInternalAuth(app, { token: config.internalToken });
  const ctx: ArtifactsAuditContext = {
    ledger: createAuditLedger(store),
    artifacts: createArtifactRepository(store, storage),
    signer: createContentSigner({
      secret: config.storage.signingSecret,
      ttlSeconds: config.artifacts.signedUrlTtlSeconds,
      publicBaseUrl: config.publicBaseUrl,
      ...(deps.now ? { now: deps.now } : {}),
    }),
    missions:
      deps.missions ??
      createMissionDirectory(
        createPeerClient({
          service: 'orchestrator',
          ...config.peers.orchestrator,
          timeoutMs: config.internalTimeoutMs,
        }),
      ),
  };
  for (const register of ROUTE_GROUPS) register(app, ctx);
  return Object.assign(app, { ctx });
}
