import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createLogger } from './logger.ts';
import {
  bootFailureMessage,
  bootService,
  type RunningService,
  type ServiceDefinition,
} from './run-service.ts';

/** A service to run in this process, with its own environment (its PORT, say). */
export type ServiceInProcess = { definition: ServiceDefinition; env: NodeJS.ProcessEnv };

/**
 * Owns the process for one service (its `server.ts`): boots it (a bad value stops the boot with
 * one line, exit 1), and on SIGTERM/SIGINT shuts down gracefully within SHUTDOWN_GRACE_SECONDS
 * (see shutdown.ts): exit 0 when everything closed in time, 1 when the grace period ran out.
 */
export async function runService(definition: ServiceDefinition): Promise<FastifyInstance> {
  const [running] = await runServices([{ definition, env: process.env }]);
  return running!.app;
}

/**
 * Owns the process for several services (the all-in-one mode): each is its own Fastify app on
 * its own port, with its own settings, store, logger and trace exporter. They boot together;
 * if one fails, the ones that started are stopped and the process exits 1 after printing one
 * line per failure. SIGTERM/SIGINT drain all of them at once: exit 0 when every one closed in
 * its grace period; further signals during the drain change nothing.
 */
export async function runServices(services: ServiceInProcess[]): Promise<RunningService[]> {
  const results = await Promise.allSettled(
    services.map(({ definition, env }) => bootService(definition, env)),
  );
  const running = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failures = results.flatMap((r, i) =>
    r.status === 'rejected' ? [bootFailureMessage(services[i]!.definition.service, r.reason)] : [],
  );
  if (failures.length > 0) {
    for (const line of failures) process.stderr.write(`${line}\n`);
    await Promise.all(running.map((s) => s.stop('boot failed')));
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    void Promise.all(running.map((s) => s.stop(signal))).then((clean) =>
      process.exit(clean.every(Boolean) ? 0 : 1),
    );
  };
  // Every signal is ours to handle, not only the first: a stop often arrives twice (`npm start`
  // signals its whole process group, and the stack signals each service again), and a second one
  // left to Node's default ended the process mid-drain (requests cut, the store never closed).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal));
  exitOnCrash(running.length === 1 ? running[0]!.logger : createLogger('all-in-one', 'info'));
  return running;
}

/**
 * An error nothing caught, or a rejected promise nobody handled, ends the process as Node would
 * (exit 1: its state is unknown), but as one structured log line with the stack, not a bare
 * trace on stderr that log collectors split into a line each.
 */
function exitOnCrash(logger: Logger): void {
  const crash = (what: string) => (err: unknown) => {
    logger.fatal({ err }, `${what}, exiting`);
    // Whatever the logger still holds goes out first; a stuck destination does not keep us.
    setTimeout(() => process.exit(1), 500).unref();
    logger.flush(() => process.exit(1));
  };
  process.on('uncaughtException', crash('uncaught exception'));
  process.on('unhandledRejection', crash('unhandled rejection'));
}
