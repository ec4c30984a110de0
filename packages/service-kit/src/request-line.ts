import type { IncomingMessage, Server } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** How a request ended, as its one log line (and its metrics) tell it. */
export type RequestEnd = {
  statusCode: number;
  durationMs: number;
  /** Fields the route added (a WebSocket's close code, the peer a forward gave up on). */
  fields: Record<string, unknown>;
};

/** Called once per request, however it ended: answered, or its client gone first. */
export type RequestEndListener = (request: FastifyRequest, reply: FastifyReply, end: RequestEnd) => void;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Whether a client's X-Request-Id is taken as the request's id (else the request gets a new one). */
export const isRequestId = (value: unknown): value is string =>
  typeof value === 'string' && REQUEST_ID.test(value);

/** The status logged for a request whose client left before any answer was written or produced. */
export const CLIENT_CLOSED_STATUS = 499;

type LineState = {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The line is written (or being written): never twice. */
  ended: boolean;
  /** The route writes the line itself when its exchange ends (a WebSocket). */
  held: boolean;
  /** The answer is being sent (onSend ran): a close from now on cannot wait for it. */
  sending: boolean;
  /** The client left before the answer existed: the line waits for the answer the route produces. */
  clientGone: boolean;
};

const states = new WeakMap<IncomingMessage, LineState>();
const listeners = new WeakMap<Server, RequestEndListener[]>();

function listenersOf(request: FastifyRequest): RequestEndListener[] {
  return listeners.get(request.server.server) ?? [];
}

function stateOf(request: FastifyRequest, reply: FastifyReply): LineState {
  let state = states.get(request.raw);
  if (!state) {
    state = { request, reply, ended: false, held: false, sending: false, clientGone: false };
    states.set(request.raw, state);
  }
  return state;
}

function end(state: LineState, statusCode: number, fields: Record<string, unknown>): void {
  if (state.ended) return;
  state.ended = true;
  const durationMs = Math.round(state.reply.elapsedTime * 10) / 10;
  for (const listener of listenersOf(state.request))
    listener(state.request, state.reply, { statusCode, durationMs, fields });
}

/**
 * Ends every request exactly once for the listeners (the request line, the request metrics):
 * when its answer has been written (onResponse), and also when its client went away first,
 * which Fastify's onResponse never sees: a stream the client closed (its line has the status
 * it was sent and `clientClosed: true`), or a request the client left before its answer was
 * ready (the line waits for the answer the route still produces). A route that takes the
 * socket over for good (a WebSocket) holds its line and ends it itself (`holdRequestLine`).
 */
export function installRequestEnd(app: FastifyInstance): void {
  if (listeners.has(app.server)) return;
  listeners.set(app.server, []);
  app.addHook('onRequest', (request, reply, done) => {
    const state = stateOf(request, reply);
    const raw = reply.raw;
    const onClose = () => {
      // An answer written whole: Fastify's onResponse (run on 'finish') ends the line.
      if (state.ended || state.held || raw.writableFinished) return;
      if (raw.headersSent) end(state, raw.statusCode, { clientClosed: true });
      else if (state.sending) end(state, reply.statusCode, { clientClosed: true });
      else if (reply.sent) end(state, CLIENT_CLOSED_STATUS, { clientClosed: true });
      else state.clientGone = true;
    };
    raw.once('close', onClose);
    if (raw.destroyed) onClose();
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const state = stateOf(request, reply);
    state.sending = true;
    // The client left while the route worked: the line has the answer nobody received.
    if (state.clientGone) end(state, reply.statusCode, { clientClosed: true });
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const state = stateOf(request, reply);
    if (!state.held) end(state, reply.statusCode, state.clientGone ? { clientClosed: true } : {});
    done();
  });
}

/** Adds a listener called once at the end of every request (see installRequestEnd). */
export function onRequestEnd(app: FastifyInstance, listener: RequestEndListener): void {
  installRequestEnd(app);
  listeners.get(app.server)?.push(listener);
}

/**
 * Writes the line of a request the route ends itself, now: the status that was sent (499 if none)
 * and the fields given (e.g. why the server cut a stream). Nothing if it was written already.
 */
export function endRequestLine(
  request: FastifyRequest,
  reply: FastifyReply,
  fields: Record<string, unknown>,
): void {
  const raw = reply.raw;
  end(stateOf(request, reply), raw.headersSent ? raw.statusCode : CLIENT_CLOSED_STATUS, fields);
}

/**
 * Ends a request the route took over (`reply.hijack()`) once its client had left: its line says
 * `clientClosed: true` with the status that was sent, 499 if none. A hijacked reply never reaches
 * onResponse or onSend, so this is the only way its line gets written.
 */
export function endClientClosed(
  request: FastifyRequest,
  reply: FastifyReply,
  fields: Record<string, unknown> = {},
): void {
  endRequestLine(request, reply, { clientClosed: true, ...fields });
}

/**
 * For a route that keeps the connection past its HTTP exchange (a WebSocket): the line is not
 * written when the socket closes but by the returned function, with the status and the fields
 * the route gives (e.g. `101` and the WebSocket's close code).
 */
export function holdRequestLine(
  request: FastifyRequest,
): (statusCode: number, fields?: Record<string, unknown>) => void {
  const state = states.get(request.raw);
  if (!state) return () => {};
  state.held = true;
  return (statusCode, fields = {}) => end(state, statusCode, fields);
}

/**
 * The request Node is reading on this socket (a body still arriving) and whether its line is
 * still to be written; for Node's own refusals (a 408 on a slow body) of a request Fastify has.
 */
export function requestInProgress(
  socket: { _httpMessage?: { req?: IncomingMessage } | null } | null | undefined,
): { id: string; end: (statusCode: number, fields: Record<string, unknown>) => void } | null {
  const raw = socket?._httpMessage?.req;
  const state = raw ? states.get(raw) : undefined;
  if (!state || state.ended) return null;
  return { id: state.request.id, end: (statusCode, fields) => end(state, statusCode, fields) };
}

/** The request line every service writes: one JSON line per request with its id (see installRequestEnd). */
export function installRequestLine(app: FastifyInstance): void {
  onRequestEnd(app, (request, _reply, { statusCode, durationMs, fields }) => {
    request.log.info(
      {
        method: request.method,
        url: request.url.split('?')[0],
        route: request.routeOptions.url,
        statusCode,
        durationMs,
        ...fields,
      },
      'request',
    );
  });
}
