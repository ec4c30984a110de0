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
import { serviceScope } from './service-scope.ts';
import { samplerSetting } from './tracing-settings.ts';

/**
 * OpenTelemetry export, on only when `OTEL_EXPORTER_OTLP_ENDPOINT` (or the traces-only
 * variant) is set. We build the SDK's tracer provider ourselves instead of `sdk-node` with
 * auto-instrumentation: that needs a loader hook registered before any module loads
 * (`--import`), which does not hold under ESM with type stripping, and its default resource
 * detectors may probe a cloud metadata server. The spans come from our own hooks (one server
 * span per request, one per outbox delivery and job), which already carry the W3C context; the
 * resource is only `service.name`. Several services in one process each get their own provider,
 * picked through the service scope the work runs in.
 */
const providers = new Map<string, TracerProvider>();

function currentProvider(): TracerProvider | undefined {
  const service = serviceScope.getStore();
  if (service !== undefined) return providers.get(service);
  // Work outside any scope (a test building an app by hand): the process's only service.
  return providers.size === 1 ? providers.values().next().value : undefined;
}

/**
 * Starts export when it is configured. The SDK and exporter are loaded only then: a service
 * that exports nothing (the default) does not pay their load time and memory at every boot.
 */
export async function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (providers.has(service)) return true;
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, sdk] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
  ]);
  if (providers.has(service)) return true;
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  const { BatchSpanProcessor, TracerProvider } = sdk;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    // The provider of sdk-trace 3 does not read OTEL_TRACES_SAMPLER itself: without this every
    // request was traced whatever the operator set.
    sampler: samplerOf(sdk, samplerSetting(env)),
    spanProcessors: [
      new BatchSpanProcessor({
        // The HTTP exporter reads the endpoint and headers from the standard OTEL_* variables.
        exporter: new OTLPTraceExporter(),
        ...(Number.isFinite(delay) && delay > 0 ? { scheduledDelayMillis: delay } : {}),
      }),
    ],
  });
  providers.set(service, provider);
  return true;
}

/** The SDK's sampler for a checked OTEL_TRACES_SAMPLER (tracing-settings.ts). */
function samplerOf(
  sdk: typeof import('@opentelemetry/sdk-trace'),
  { name, ratio }: ReturnType<typeof samplerSetting>,
): import('@opentelemetry/sdk-trace').Sampler {
  const root = name.endsWith('always_off')
    ? new sdk.AlwaysOffSampler()
    : name.endsWith('traceidratio')
      ? new sdk.TraceIdRatioBasedSampler(ratio)
      : new sdk.AlwaysOnSampler();
  return name.startsWith('parentbased_') ? new sdk.ParentBasedSampler({ root }) : root;
}

/** Sends the spans still buffered (at shutdown): `service`'s, or every service's. */
export async function stopTracing(service?: string): Promise<void> {
  const stopping = service === undefined ? [...providers.keys()] : [service];
  await Promise.all(
    stopping.map(async (name) => {
      const provider = providers.get(name);
      providers.delete(name);
      await provider?.shutdown().catch(() => {});
    }),
  );
}

export type SpanParent = { traceId: string; spanId: string; sampled: boolean };

/**
 * A span continuing `parent` (a remote span), or undefined when export is off. `attributes` may
 * be a function, called only when the span is sampled (a request's hot path).
 */
export function startSpan(
  name: string,
  kind: 'server' | 'client' | 'consumer' | 'internal',
  parent: SpanParent | undefined,
  attributes: Attributes | (() => Attributes) = {},
): Span | undefined {
  const provider = currentProvider();
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
  const span = provider.getTracer('@hs/service-kit').startSpan(name, { kind: spanKind }, context);
  // Set after the sampling decision (the samplers configurable through OTEL_TRACES_SAMPLER don't
  // read attributes): a span that is not sampled gets none built.
  if (span.isRecording()) span.setAttributes(typeof attributes === 'function' ? attributes() : attributes);
  return span;
}

export function endSpan(span: Span | undefined, failed = false, attributes: Attributes = {}): void {
  if (!span) return;
  span.setAttributes(attributes);
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
