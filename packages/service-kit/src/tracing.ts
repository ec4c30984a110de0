import {
  type Attributes,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
} from '@opentelemetry/api';
import type { TracerProvider } from '@opentelemetry/sdk-trace';

/**
 * OpenTelemetry export, on only when `OTEL_EXPORTER_OTLP_ENDPOINT` (or the traces-only
 * variant) is set. We build the SDK's tracer provider ourselves instead of `sdk-node` with
 * auto-instrumentation: that needs a loader hook registered before any module loads
 * (`--import`), which does not hold under ESM with type stripping, and its default resource
 * detectors may probe a cloud metadata server. The spans come from our own hooks (one server
 * span per request, one per outbox delivery and job), which already carry the W3C context; the
 * resource is only `service.name`.
 */
let provider: TracerProvider | undefined;

/**
 * Starts export when it is configured. The SDK and exporter are loaded only then: a service
 * that exports nothing (the default) does not pay their load time and memory at every boot.
 */
export async function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (provider) return true;
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, { BatchSpanProcessor, TracerProvider }] =
    await Promise.all([
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace'),
    ]);
  if (provider) return true;
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: [
      new BatchSpanProcessor({
        // The HTTP exporter reads the endpoint and headers from the standard OTEL_* variables.
        exporter: new OTLPTraceExporter(),
        ...(Number.isFinite(delay) && delay > 0 ? { scheduledDelayMillis: delay } : {}),
      }),
    ],
  });
  return true;
}

/** Sends the spans still buffered (at shutdown). */
export async function stopTracing(): Promise<void> {
  const current = provider;
  provider = undefined;
  await current?.shutdown().catch(() => {});
}

export type SpanParent = { traceId: string; spanId: string; sampled: boolean };

/** A span continuing `parent` (a remote span), or undefined when export is off. */
export function startSpan(
  name: string,
  kind: 'server' | 'client' | 'consumer' | 'internal',
  parent: SpanParent | undefined,
  attributes: Attributes = {},
): Span | undefined {
  if (!provider) return undefined;
  const context = parent
    ? trace.setSpanContext(ROOT_CONTEXT, {
        traceId: parent.traceId,
        spanId: parent.spanId,
        traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
        isRemote: true,
      })
    : ROOT_CONTEXT;
  const spanKind = {
    server: SpanKind.SERVER,
    client: SpanKind.CLIENT,
    consumer: SpanKind.CONSUMER,
    internal: SpanKind.INTERNAL,
  }[kind];
  return provider.getTracer('@hs/service-kit').startSpan(name, { kind: spanKind, attributes }, context);
}

export function endSpan(span: Span | undefined, failed = false, attributes: Attributes = {}): void {
  if (!span) return;
  span.setAttributes(attributes);
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
