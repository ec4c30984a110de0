import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { endOpenStreams } from './open-streams.ts';

/**
 * The graceful part of a shutdown, in order:
 *  1. event streams end at once (clients reconnect after `retry`, to another replica);
 *  2. `app.close()`: the listener stops accepting, `preClose` hooks run, and every request
 *     already received is answered (with `connection: close`, so its connection ends after it);
 *  3. connections still idle after a short linger are closed (see below);
 *  4. the app's `onClose` hooks (workers hand their jobs back, outboxes, store), then the
 *     lifecycle's shutdown hooks (browsers).
 *
 * Node closes idle keep-alive connections the moment the listener closes. A client may already
 * have sent its next request on such a connection, and it would get a reset instead of an
 * answer. So the idle sweep waits: a connection that is busy answers with `connection: close`
 * and ends by itself; only connections left idle after the linger are closed.
 */
export async function drainGracefully(
  app: FastifyInstance,
  options: { graceMs: number; hooks: Array<() => Promise<void> | void>; logger?: Logger },
): Promise<void> {
  const server = app.server;
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {};
  const ended = endOpenStreams(server);
  if (ended > 0) options.logger?.info({ streams: ended }, 'ended open event streams');
  const lingerMs = Math.min(1000, options.graceMs / 4);
  let sweep: NodeJS.Timeout | undefined;
  const linger = setTimeout(() => {
    server.closeIdleConnections = closeIdle;
    closeIdle();
    sweep = setInterval(closeIdle, 50);
    sweep.unref();
  }, lingerMs);
  linger.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(linger);
    clearInterval(sweep);
  }
  // After the app: a browser may still be needed by a request or a job being handed back.
  await Promise.allSettled(options.hooks.map(async (fn) => fn()));
}
