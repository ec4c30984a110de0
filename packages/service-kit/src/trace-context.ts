import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** The W3C trace context of the request being served: its trace and this service's span in it. */
export type TraceContext = { traceId: string; spanId: string; sampled: boolean };

const storage = new AsyncLocalStorage<TraceContext>();
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = '0'.repeat(32);

/** Continues the caller's trace (`traceparent`), or starts one; this service gets a new span id. */
export function traceFromHeader(value: string | string[] | undefined): TraceContext {
  const match = typeof value === 'string' ? TRACEPARENT.exec(value.trim().toLowerCase()) : null;
  const spanId = randomBytes(8).toString('hex');
  if (match && match[1] !== ZERO_TRACE && match[2] !== '0'.repeat(16))
    return { traceId: match[1]!, spanId, sampled: (Number.parseInt(match[3]!, 16) & 1) === 1 };
  return { traceId: randomBytes(16).toString('hex'), spanId, sampled: true };
}

export const currentTrace = (): TraceContext | undefined => storage.getStore();

/** The `traceparent` to send on a call made while serving a request (undefined outside one). */
export function outgoingTraceparent(trace = currentTrace()): string | undefined {
  return trace && `00-${trace.traceId}-${trace.spanId}-${trace.sampled ? '01' : '00'}`;
}

/** Cloud Logging's field names, so its console groups a request's lines across services. */
export function traceLogFields(trace: TraceContext, project = process.env.GOOGLE_CLOUD_PROJECT) {
  return {
    'logging.googleapis.com/trace': project ? `projects/${project}/traces/${trace.traceId}` : trace.traceId,
    'logging.googleapis.com/spanId': trace.spanId,
    'logging.googleapis.com/trace_sampled': trace.sampled,
  };
}

/**
 * Each request runs inside its trace context: its log lines carry the trace, and peer calls made
 * while serving it send `traceparent`, so one request through the gateway has one trace id in
 * every service it reaches.
 */
export function registerTraceContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const trace = traceFromHeader(request.headers.traceparent);
    request.log = request.log.child(traceLogFields(trace));
    storage.run(trace, done);
  });
}
