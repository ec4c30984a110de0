import type { AuditWriter } from '@hs/audit-client';
import type { HouseholdMembers } from '@hs/service-kit';
import type { BlobStorage } from '@hs/storage';
import type { Logger } from 'pino';
import type { TryOnBackend } from './adapters/backends/index.ts';
import type { JobRepository } from './adapters/job-repository.ts';
import type { VtoConfig } from './config.ts';
import type { JobWorker } from './jobs/job-worker.ts';

/** Everything the vto routes depend on, built once in app.ts. */
export interface VtoContext {
  config: VtoConfig;
  jobs: JobRepository;
  storage: BlobStorage;
  backend: TryOnBackend;
  members: HouseholdMembers;
  worker: JobWorker;
  /** SYSTEM entries: jobs dead-lettered. */
  audit: AuditWriter;
  logger: Logger | undefined;
}
