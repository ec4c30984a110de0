import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ConfigError } from './config.ts';
import { createLogger } from './logger.ts';

export interface RunServiceOptions<
  C extends { host: string; port: number; logLevel: string; shutdownGraceMs: number },
> {
  service: string;
  loadConfig: () => C;
  build: (config: C, logger: Logger) => Promise<FastifyInstance>;
}

/**
 * Owns the process: parses configuration (a bad value stops the boot with one line), builds
 * the app, listens, and on SIGTERM/SIGINT stops accepting, lets in-flight requests finish
 * (bounded by SHUTDOWN_GRACE_SECONDS) and closes the app's resources.
 */
export async function runService<
  C extends { host: string; port: number; logLevel: string; shutdownGraceMs: number },
>(options: RunServiceOptions<C>): Promise<FastifyInstance> {
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
  let app: FastifyInstance;
  try {
    app = await options.build(config, logger);
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${options.service}: ${err.message}\n`);
      process.exit(1);
    }
    logger.fatal({ err }, 'boot failed');
    process.stderr.write(`${options.service}: boot failed: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ port }, `${options.service} listening on http://${config.host}:${port}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.warn('shutdown grace period over, exiting');
      process.exit(1);
    }, config.shutdownGraceMs);
    timer.unref();
    // Fastify closes the connections that are idle when close() starts; a keep-alive connection
    // whose request was still running becomes idle only later and would hold the process until
    // the grace period ends (peers' undici pools keep connections open). Sweep them as they free up.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
    sweep.unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return app;
}
