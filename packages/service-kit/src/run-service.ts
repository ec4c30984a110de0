import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ConfigError } from './config.ts';
import { createLogger } from './logger.ts';
import { drainGracefully } from './shutdown.ts';
import { startTracing, stopTracing } from './tracing.ts';

type ProcessConfig = { host: string; port: number; logLevel: string; shutdownGraceMs: number };

/** What a service's process may hook into besides its Fastify app. */
export interface ServiceLifecycle {
  /**
   * Runs `fn` on SIGTERM/SIGINT once the requests already received have been answered and the
   * app has closed (its `onClose` hooks: workers, outboxes, store); several run at once, within
   * SHUTDOWN_GRACE_SECONDS. For process-wide resources the app does not own, such as a browser.
   */
  onShutdown(fn: () => Promise<void> | void): void;
}

export interface RunServiceOptions<C extends ProcessConfig> {
  service: string;
  loadConfig: () => C;
  build: (config: C, logger: Logger, lifecycle: ServiceLifecycle) => Promise<FastifyInstance>;
}

/**
 * Owns the process: parses configuration (a bad value stops the boot with one line), builds
 * the app, listens, and on SIGTERM/SIGINT shuts down gracefully within SHUTDOWN_GRACE_SECONDS
 * (see shutdown.ts): exit 0 when everything closed in time, 1 when the grace period ran out.
 */
export async function runService<C extends ProcessConfig>(
  options: RunServiceOptions<C>,
): Promise<FastifyInstance> {
  let config: C;
  try {
    config = options.loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${options.service}: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(options.service, config.logLevel);
  if (await startTracing(options.service)) logger.info('exporting traces over OTLP');
  const shutdownHooks: Array<() => Promise<void> | void> = [];
  const lifecycle: ServiceLifecycle = { onShutdown: (fn) => void shutdownHooks.push(fn) };
  let app: FastifyInstance;
  let stopping = false;
  try {
    app = await options.build(config, logger, lifecycle);
    // Once stopping, every answer closes its connection, so a client never sends its next
    // request on a connection that is about to go away; /ready tells load balancers to move on.
    app.addHook('onRequest', async (request, reply) => {
      if (!stopping) return;
      reply.header('connection', 'close');
      if (request.url === '/ready')
        return reply
          .code(503)
          .send({ status: 'not_ready', service: options.service, checks: { shuttingDown: false } });
    });
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    // A bad setting or an unusable database file: one line naming it, no stack.
    if (err instanceof ConfigError || (err as Error).name === 'StoreUnusableError') {
      process.stderr.write(`${options.service}: ${(err as Error).message}\n`);
      process.exit(1);
    }
    logger.fatal({ err }, 'boot failed');
    process.stderr.write(`${options.service}: boot failed: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ port }, `${options.service} listening on http://${config.host}:${port}`);

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.warn('shutdown grace period over, exiting');
      process.exit(1);
    }, config.shutdownGraceMs);
    timer.unref();
    drainGracefully(app, { graceMs: config.shutdownGraceMs, hooks: shutdownHooks, logger }).then(
      async () => {
        // Last: the spans of the requests and deliveries that just finished.
        await stopTracing();
        logger.info('shut down');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return app;
}
