import { type AuditWriter, createAuditWriter } from '@hs/audit-client';
import {
  createHouseholdMembers,
  createPeerClient,
  createServiceApp,
  type HouseholdMembers,
  peerHealthCheck,
  registerInternalAuth,
  type ServiceApp,
} from '@hs/service-kit';
import type { BlobStorage } from '@hs/storage';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import { createTryOnBackend, type TryOnBackend } from './adapters/backends/index.ts';
import { createImageLoader } from './adapters/image-loader.ts';
import { createJobRepository } from './adapters/job-repository.ts';
import { createRemoteImageFetcher, type RemoteImageFetcher } from './adapters/remote-image-fetcher.ts';
import type { VtoConfig } from './config.ts';
import type { VtoContext } from './context.ts';
import { createJobWorker } from './jobs/job-worker.ts';
import { createJobProcessor } from './jobs/process-job.ts';
import { registerVtoJobRoutes } from './routes/vto-jobs.ts';
import { registerVtoResultRoutes } from './routes/vto-result.ts';

/** The audit outbox's longest wait between retries (it only carries SYSTEM entries here). */
const AUDIT_RETRY_MAX_MS = 60_000;

export interface VtoDeps {
  config: VtoConfig;
  store: Store;
  storage: BlobStorage;
  logger?: Logger | false;
  /** Tests may replace these; otherwise they are built from config. */
  members?: HouseholdMembers;
  fetcher?: RemoteImageFetcher;
  backend?: TryOnBackend;
  /** Run the background worker (default true). */
  background?: boolean;
}

export async function buildApp(deps: VtoDeps): Promise<ServiceApp & { ctx: VtoContext }> {
  const { config, store, storage } = deps;
  const settings = config.vto;
  const logger = deps.logger || undefined;
  const app = await createServiceApp({
    service: 'vto',
    description:
      'Virtual try-on jobs: a person image and a garment image in, a try-on picture out, rendered in the ' +
      'background by the backend VTO_INFERENCE_BACKEND names (simulated, inline or http).',
    logger: deps.logger ?? false,
    config,
    readiness: { store: () => store.ping(), gateway: peerHealthCheck(config.peers.gateway) },
  });
  registerInternalAuth(app, { token: config.internalToken });

  const gateway = createPeerClient({
    service: 'gateway',
    ...config.peers.gateway,
    timeoutMs: config.internalTimeoutMs,
  });
  const fetcher =
    deps.fetcher ??
    createRemoteImageFetcher({ maxBytes: settings.maxImageBytes, timeoutMs: settings.fetchTimeoutMs });
  const backend = deps.backend ?? createTryOnBackend(settings);
  const jobs = createJobRepository(store);
  const audit: AuditWriter = createAuditWriter({
    store,
    ledger: createPeerClient({
      service: 'artifacts-audit',
      ...config.peers['artifacts-audit'],
      timeoutMs: config.internalTimeoutMs,
    }),
    sourceService: 'vto',
    maxBackoffMs: AUDIT_RETRY_MAX_MS,
    logger,
  });
  const worker = createJobWorker({
    jobs,
    process: createJobProcessor({
      backend,
      storage,
      loadImage: createImageLoader({ storage, fetcher, maxBytes: settings.maxImageBytes }),
    }),
    concurrency: settings.concurrency,
    pollIntervalMs: settings.pollIntervalMs,
    // Inputs are fetched in parallel, then rendered, then stored.
    deadlineMs: settings.fetchTimeoutMs + settings.http.timeoutMs + 30_000,
    audit,
    logger,
  });
  const ctx: VtoContext = {
    config,
    jobs,
    storage,
    backend,
    members: deps.members ?? createHouseholdMembers(gateway),
    worker,
    audit,
    logger,
  };
  registerVtoJobRoutes(app, ctx);
  registerVtoResultRoutes(app, ctx);
  if (deps.background !== false)
    app.addHook('onReady', async () => {
      audit.outbox?.start();
      worker.start();
    });
  // Running jobs go back to the queue as soon as shutdown starts, not after the HTTP drain.
  app.addHook('preClose', async () => worker.stop());
  app.addHook('onClose', async () => {
    await audit.outbox?.stop();
    if (!deps.fetcher) await fetcher.close();
  });
  return Object.assign(app, { ctx });
}
