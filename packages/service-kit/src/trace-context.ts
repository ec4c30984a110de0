import { AsyncLocalStorage } from 'node:async_hooks';
import type { Attributes, Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomPoolBytes } from './random-pool.ts';
import { endSpan, type SpanParent, startSpan } from './tracing.ts';

/** The W3C trace context of the work being done: its trace and this service's span in it. */
export type TraceContext = { traceId: string; spanId: string; sampled: boolean };

const storage = new AsyncLocalStorage<TraceContext>();
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** The caller's span from a `traceparent` value, or undefined when absent or malformed. */
export function parseTraceparent(value: string | string[] | null | undefined): SpanParent | undefined {
  const match = typeof value === 'string' ? TRACEPARENT.exec(value.trim().toLowerCase()) : null;
  if (!match || match[1] === ZERO_TRACE || match[2] === ZERO_SPAN) return undefined;
  return { traceId: match[1]!, spanId: match[2]!, sampled: (Number.parseInt(match[3]!, 16) & 1) === 1 };
}

/**
 * Continues the caller's trace (`traceparent`), or starts one, with a span of this service's
 * own: the exported span when OpenTelemetry is on (so logs and export name the same span),
 * otherwise just a fresh span id.
 */
export function beginTrace(
  traceparent: string | string[] | null | undefined,
  name: string,
  kind: 'server' | 'consumer' | 'internal',
  attributes: Attributes | (() => Attributes) = {},
): { trace: TraceContext; span: Span | undefined } {
  const parent = parseTraceparent(traceparent);
  const span = startSpan(name, kind, parent, attributes);
  if (span) {
    const { traceId, spanId } = span.spanContext();
    return { trace: { traceId, spanId, sampled: parent?.sampled ?? true }, span };
  }
  return { trace: traceFromHeader(traceparent ?? undefined), span };
}

/** Continues the caller's trace (`traceparent`), or starts one, with a new span id (not exported). */
export function traceFromHeader(value: string | string[] | undefined): TraceContext {
  const parent = parseTraceparent(value);
  const spanId = randomPoolBytes(8).toString('hex');
  if (parent) return { traceId: parent.traceId, spanId, sampled: parent.sampled };
  return { traceId: randomPoolBytes(16).toString('hex'), spanId, sampled: true };
}

export const currentTrace = (): TraceContext | undefined => storage.getStore();

/** The `traceparent` to send on a call made (or stored for later) while doing traced work. */
export function outgoingTraceparent(trace = currentTrace()): string | undefined {
  return trace && `00-${trace.traceId}-${trace.spanId}-${trace.sampled ? '01' : '00'}`;
}

/**
 * A client span for a call to a peer (when OpenTelemetry is on) and the `traceparent` to send:
 * the peer's server span then hangs under the call, not directly under this request.
 */
export function startPeerCall(
  name: string,
  attributes: Attributes = {},
): { traceparent: string | undefined; end: (failed: boolean, attributes?: Attributes) => void } {
  const trace = currentTrace();
  const span = trace && startSpan(name, 'client', trace, attributes);
  if (!span) return { traceparent: outgoingTraceparent(trace), end: () => {} };
  const { traceId, spanId } = span.spanContext();
  return {
    traceparent: outgoingTraceparent({ traceId, spanId, sampled: trace.sampled }),
    end: (failed, more = {}) => endSpan(span, failed, more),
  };
}

/**
 * Runs background work (an outbox delivery, a job) in the trace of the request that queued it
 * (`traceparent` stored with it), so its peer calls and log lines carry that trace id.
 */
export async function runInTrace<T>(
  traceparent: string | null | undefined,
  name: string,
  fn: (trace: TraceContext) => Promise<T>,
  attributes: Attributes = {},
): Promise<T> {
  const { trace, span } = beginTrace(traceparent, name, 'consumer', attributes);
  let failed = false;
  try {
    return await storage.run(trace, () => fn(trace));
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    endSpan(span, failed);
  }
}

/** Cloud Logging's field names, so its console groups a request's lines across services. */
export function traceLogFields(trace: TraceContext, project = process.env.GOOGLE_CLOUD_PROJECT) {
  return {
    'logging.googleapis.com/trace': project ? `projects/${project}/traces/${trace.traceId}` : trace.traceId,
    'logging.googleapis.com/spanId': trace.spanId,
    'logging.googleapis.com/trace_sampled': trace.sampled,
  };
}

const spans = new WeakMap<FastifyRequest, Span>();

/**
 * Each request runs inside its trace context: its log lines carry the trace, and peer calls made
 * while serving it send `traceparent`, so one request through the gateway has one trace id in
 * every service it reaches. With OpenTelemetry on, each request is also an exported server span.
 */
export function registerTraceContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const { trace, span } = beginTrace(request.headers.traceparent, request.method, 'server', () => ({
      'http.request.method': request.method,
      'url.path': request.url.split('?')[0] ?? '/',
    }));
    if (span) spans.set(request, span);
    request.log = request.log.child(traceLogFields(trace));
    storage.run(trace, done);
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = spans.get(request);
    if (!span) return;
    const route = request.routeOptions.url;
    if (route) span.updateName(`${request.method} ${route}`);
    endSpan(span, reply.statusCode >= 500, {
      'http.response.status_code': reply.statusCode,
      ...(route ? { 'http.route': route } : {}),
    });
  });
}
