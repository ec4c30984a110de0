import type { AuditWriter } from '@hs/audit-client';
import type { Logger } from 'pino';
import type { GatewayCallbacks } from './adapters/gateway-callbacks.ts';
import type { JobRepository } from './adapters/job-repository.ts';
import type { CartprepConfig } from './config.ts';
import type { JobRunner } from './worker/job-runner.ts';
import type { Worker } from './worker/worker.ts';

/** Everything the cart-prep routes depend on, built once in app.ts. */
export interface CartprepContext {
  config: CartprepConfig;
  jobs: JobRepository;
  runner: JobRunner;
  worker: Worker;
  callbacks: GatewayCallbacks;
  /** SYSTEM entries: callbacks given up, jobs dead-lettered. */
  audit: AuditWriter;
  logger: Logger | undefined;
}
