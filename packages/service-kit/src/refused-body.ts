import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { payloadTooLarge } from './errors.ts';
import { awaitingContinue } from './expect-continue.ts';

/**
 * Reads and throws away what the client is still sending of a refused body, and resolves once
 * the request is complete (true) or `maxBytes` more have arrived (false: the caller closes the
 * connection instead). The refusal is sent only after this: a reply that completes while the
 * client is still sending makes the gateway's HTTP client (undici) fail its write (EPIPE) and
 * drop our answer, which turns a 413 or 400 into a 502 for the client. A client that goes away
 * ends the wait too.
 */
export function discardRest(request: IncomingMessage, maxBytes: number): Promise<boolean> {
  if (request.complete || request.readableEnded || request.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    let discarded = 0;
    const done = (drained: boolean) => {
      request.off('data', onData).off('end', onEnd).off('close', onClose);
      if (!drained) request.pause();
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > maxBytes) done(false);
    };
    const onEnd = () => done(true);
    const onClose = () => done(request.complete);
    request.on('data', onData).once('end', onEnd).once('close', onClose);
    request.on('error', () => undefined);
    request.resume();
  });
}

/** How much of a refused body a service reads and drops before answering (see below). */
export const refusedBodyDrainLimit = (bodyLimit: number) => Math.max(8 * 1_048_576, 4 * bodyLimit);

/**
 * Fastify answers a body it refused to parse (413, 400, 415) at once and closes the connection
 * while the client may still be sending. Here a body up to `drainLimit` is read and dropped
 * first and the connection stays usable; a larger one still gets the close. A client waiting
 * for "100 Continue" has sent nothing and never will: it gets the answer and the close at once.
 */
export function drainRefusedBodies(app: FastifyInstance, drainLimit: number): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.getHeader('connection') !== 'close' || request.raw.complete) return payload;
    if (awaitingContinue(request.raw)) return payload;
    if (Number(request.headers['content-length'] ?? 0) > drainLimit) return payload;
    if (await discardRest(request.raw, drainLimit)) reply.removeHeader('connection');
    return payload;
  });
}

/**
 * Set by the gateway on a request whose JSON body was over its limit (the body itself is not sent
 * on; its value is that limit): the service still makes the checks that come before the body
 * (its own onRequest hooks: 403, 404), then answers 413 instead of reading a body. Clients cannot
 * set it: the gateway drops it from what they send.
 */
export const BODY_OVER_LIMIT_HEADER = 'x-body-over-limit';

export function refuseBodiesOverGatewayLimit(app: FastifyInstance): void {
  app.addHook('preParsing', async (request) => {
    // A path with no route is 404 whatever its body, as it is with a small one.
    if (request.is404) return;
    if (request.headers[BODY_OVER_LIMIT_HEADER] !== undefined) throw payloadTooLarge();
  });
}
