import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { type BaseConfig, ConfigError, collectConfigProblems } from './config.ts';
import { createLogger } from './logger.ts';
import { serviceScope } from './service-scope.ts';
import { drainGracefully } from './shutdown.ts';
import { startTracing, stopTracing } from './tracing.ts';
import { checkTracingSettings } from './tracing-settings.ts';

type ProcessConfig = {
  host: string;
  port: number;
  logLevel: string;
  shutdownGraceMs: number;
  persistence?: BaseConfig['persistence'];
};

/** Where the service keeps its data, said once at boot: a wrong or misspelt setting shows here. */
function storeDescription(persistence: ProcessConfig['persistence']): string | undefined {
  if (!persistence) return undefined;
  if (persistence.backend === 'sqlite') return `sqlite in ${persistence.dataDir}`;
  if (persistence.backend === 'docstore') {
    // The client reads the emulator's address from the environment itself: say which one.
    const emulator = process.env.FIRESTORE_EMULATOR_HOST
      ? `, emulator at ${process.env.FIRESTORE_EMULATOR_HOST}`
      : '';
    return `docstore (Firestore project ${persistence.firestoreProjectId}, database ${persistence.firestoreDatabaseId ?? '(default)'}${emulator})`;
  }
  return 'inmemory (every write is lost when the process stops)';
}

/** What a service's process may hook into besides its Fastify app. */
export interface ServiceLifecycle {
  /**
   * Runs `fn` on SIGTERM/SIGINT once the requests already received have been answered and the
   * app has closed (its `onClose` hooks: workers, outboxes, store); several run at once, within
   * SHUTDOWN_GRACE_SECONDS. For process-wide resources the app does not own, such as a browser.
   */
  onShutdown(fn: () => Promise<void> | void): void;
}

/** A service as its entry points see it: `server.ts` runs one, the all-in-one mode runs eight. */
export interface ServiceDefinition<C extends ProcessConfig = ProcessConfig> {
  service: string;
  /** Parses the service's settings from `env` (its own copy in the all-in-one mode). */
  loadConfig(env: NodeJS.ProcessEnv): C;
  build(config: C, logger: Logger, lifecycle: ServiceLifecycle): Promise<FastifyInstance>;
}

/** Keeps the definition's config type tied to its `build`. */
export const defineService = <C extends ProcessConfig>(definition: ServiceDefinition<C>) => definition;

/** A service listening: `stop` drains it and resolves false when the grace period ran out. */
export type RunningService = {
  service: string;
  app: FastifyInstance;
  logger: Logger;
  port: number;
  stop: (signal: string) => Promise<boolean>;
};

/**
 * Parses the configuration, builds the app and listens, inside the service's scope (its name
 * for process-wide facilities). A bad setting throws ConfigError; see `bootFailureMessage`.
 */
export function bootService<C extends ProcessConfig>(
  definition: ServiceDefinition<C>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningService> {
  return serviceScope.run(definition.service, () => boot(definition, env));
}

async function boot<C extends ProcessConfig>(
  definition: ServiceDefinition<C>,
  env: NodeJS.ProcessEnv,
): Promise<RunningService> {
  const { service } = definition;
  // Every setting that is wrong given the others is named at once, not one per restart.
  const config = collectConfigProblems(() => {
    checkTracingSettings(env);
    return definition.loadConfig(env);
  });
  const logger = createLogger(service, config.logLevel);
  if (await startTracing(service, env)) logger.info('exporting traces over OTLP');
  const shutdownHooks: Array<() => Promise<void> | void> = [];
  const lifecycle: ServiceLifecycle = { onShutdown: (fn) => void shutdownHooks.push(fn) };
  let stopping = false;
  const app = await definition.build(config, logger, lifecycle);
  // Once stopping, every answer closes its connection, so a client never sends its next
  // request on a connection that is about to go away; /ready tells load balancers to move on.
  app.addHook('onRequest', async (request, reply) => {
    if (!stopping) return;
    reply.header('connection', 'close');
    if (request.url === '/ready')
      // Each check says whether it passed (`store: true`): this one, whether requests are taken.
      return reply.code(503).send({ status: 'not_ready', service, checks: { acceptingRequests: false } });
  });
  // A request received before the stop and answered after it ends its connection too.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (stopping) reply.header('connection', 'close');
    return payload;
  });
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    await app.close().catch(() => {});
    throw listenFailure(err, config);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const store = storeDescription(config.persistence);
  logger.info(
    { port, ...(store ? { store } : {}) },
    `${service} listening on http://${config.host}:${port}${store ? `, store: ${store}` : ''}`,
  );

  const stop = async (signal: string): Promise<boolean> => {
    stopping = true;
    logger.info({ signal }, 'shutting down');
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), config.shutdownGraceMs);
      timer.unref();
    });
    const drained = drainGracefully(app, {
      graceMs: config.shutdownGraceMs,
      hooks: shutdownHooks,
      logger,
    }).then(
      () => true,
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        return false;
      },
    );
    const clean = await Promise.race([drained, graceOver]);
    clearTimeout(timer);
    if (!clean) logger.warn('shutdown grace period over or failed, exiting');
    // Last: the spans of the requests and deliveries that just finished.
    await stopTracing(service);
    if (clean) logger.info('shut down');
    return clean;
  };
  let stopped: Promise<boolean> | undefined;
  return { service, app, logger, port, stop: (signal) => (stopped ??= stop(signal)) };
}

/** Where a listen fails: the address (HOST) does not resolve or is not ours, or PORT is taken or refused. */
const LISTEN_SYSCALLS = new Set(['listen', 'bind', 'getaddrinfo']);

/**
 * A socket that cannot be bound is the environment's fault, not the code's: a ConfigError
 * naming HOST and PORT (one line, no stack). Anything else `listen` throws (a plugin failing
 * in `ready`) is passed on as it is.
 */
function listenFailure(err: unknown, config: ProcessConfig): unknown {
  const syscall = (err as NodeJS.ErrnoException | null)?.syscall;
  if (!(err instanceof Error) || !LISTEN_SYSCALLS.has(syscall ?? '')) return err;
  return new ConfigError(`cannot listen on HOST=${config.host} PORT=${config.port}: ${err.message}`, {
    cause: err,
  });
}

/**
 * The one line a failed boot prints: a bad setting or an unusable database file names itself
 * without a stack; anything else says the boot failed and why.
 */
export function bootFailureMessage(service: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ConfigError || (err as Error)?.name === 'StoreUnusableError')
    return `${service}: ${message}`;
  // Unexpected: the stack is what an operator needs to report it.
  const stack = err instanceof Error && err.stack ? `\n${err.stack}` : '';
  return `${service}: boot failed: ${message}${stack}`;
}
