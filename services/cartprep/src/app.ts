import { createAuditWriter } from '@hs/audit-client';
import { createPeerClient, createServiceApp, registerInternalAuth, type ServiceApp } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import type { CartExecutor } from './adapters/cart-executor.ts';
import { createCartExecutor } from './adapters/create-executor.ts';
import { createGatewayCallbacks } from './adapters/gateway-callbacks.ts';
import { createJobRepository } from './adapters/job-repository.ts';
import type { CartprepConfig } from './config.ts';
import type { CartprepContext } from './context.ts';
import { registerJobRoutes } from './routes/jobs.ts';
import { createJobRunner } from './worker/job-runner.ts';
import { createWorker } from './worker/worker.ts';

export interface CartprepDeps {
  config: CartprepConfig;
  store: Store;
  logger?: Logger | false;
  /** Tests may inject an executor; otherwise CARTPREP_EXECUTOR picks one. */
  executor?: CartExecutor;
  /** Start the worker loop and the callback outbox (off in tests that drive them by hand). */
  background?: boolean;
}

export async function buildApp(deps: CartprepDeps): Promise<ServiceApp & { ctx: CartprepContext }> {
  const { config, store } = deps;
  const logger = deps.logger || undefined;
  const app = await createServiceApp({
    service: 'cartprep',
    description:
      "Cart preparation: jobs that put the approved item in a merchant cart and report the cart (or why it failed) to the gateway's buy flow.",
    logger: deps.logger ?? false,
    config,
    readiness: { store: () => store.ping() },
  });
  registerInternalAuth(app, { token: config.internalToken });
  const jobs = createJobRepository(store);
  const audit = createAuditWriter({
    store,
    ledger: createPeerClient({
      service: 'artifacts-audit',
      ...config.peers['artifacts-audit'],
      timeoutMs: config.internalTimeoutMs,
    }),
    sourceService: 'cartprep',
    maxBackoffMs: config.cartprep.callbackRetryMaxMs,
    logger,
  });
  const callbacks = createGatewayCallbacks({
    store,
    gatewayBaseUrl: config.peers.gateway.baseUrl,
    buyflowToken: config.cartprep.buyflowToken,
    timeoutMs: config.internalTimeoutMs,
    maxBackoffMs: config.cartprep.callbackRetryMaxMs,
    audit,
    logger,
  });
  const chosen = deps.executor
    ? { executor: deps.executor, close: async () => {} }
    : createCartExecutor(config);
  const runner = createJobRunner({
    jobs,
    executor: chosen.executor,
    callbacks,
    audit,
    settings: {
      maxAttempts: config.cartprep.maxAttempts,
      leaseMs: config.cartprep.leaseMs,
      jobTimeoutMs: config.cartprep.jobTimeoutMs,
    },
    logger,
  });
  const worker = createWorker({
    jobs,
    runner,
    concurrency: config.cartprep.concurrency,
    pollMs: config.cartprep.pollMs,
    leaseMs: config.cartprep.leaseMs,
    logger,
  });
  const ctx: CartprepContext = { config, jobs, runner, worker, callbacks, audit, logger };
  registerJobRoutes(app, ctx);
  if (deps.background !== false) {
    app.addHook('onReady', async () => {
      audit.outbox?.start();
      callbacks.outbox.start();
      worker.start();
    });
    // Running jobs go back to the queue as soon as shutdown starts, not after the HTTP drain.
    app.addHook('preClose', async () => worker.stop());
    app.addHook('onClose', async () => {
      await callbacks.outbox.stop();
      await audit.outbox?.stop();
      await chosen.close();
    });
  } else app.addHook('onClose', () => chosen.close());
  return Object.assign(app, { ctx });
}
