import type { FastifyInstance } from 'fastify';
import { forbidden } from './errors.ts';
import { secretsEqual } from './internal-auth.ts';
import { openStreamCount } from './open-streams.ts';
import { onRequestEnd } from './request-line.ts';
import { serviceScope } from './service-scope.ts';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Histogram = { counts: number[]; sum: number; count: number };

/** One gauge reading taken at scrape time, e.g. an outbox's backlog. */
export type GaugeSample = { name: string; labels: Record<string, string>; value: number };
type GaugeCollector = () => Promise<GaugeSample[]>;

/** A small Prometheus registry: counters and latency histograms keyed by their label sets. */
export function createMetrics() {
  const counters = new Map<string, Map<string, number>>();
  const histograms = new Map<string, Map<string, Histogram>>();
  const collectors = new Set<GaugeCollector>();
  const formatLabels = (labels: Record<string, string>) =>
    Object.entries(labels)
      .map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
      .join(',');
  // Every request counts itself under a label set seen many times before (method, route,
  // status): its exposition text is built once, not escaped again per request.
  const formatted = new Map<string, string>();
  const labelsOf = (labels: Record<string, string>) => {
    let id = '';
    for (const key in labels) id += `${key}\u0000${labels[key]}\u0000`;
    let text = formatted.get(id);
    if (text === undefined) {
      text = formatLabels(labels);
      // Label values come from routes and status codes, a bounded set; the bound guards a bug.
      if (formatted.size < 10_000) formatted.set(id, text);
    }
    return text;
  };
  return {
    inc(name: string, labels: Record<string, string>, by = 1) {
      const series = counters.get(name) ?? new Map<string, number>();
      counters.set(name, series);
      const key = labelsOf(labels);
      series.set(key, (series.get(key) ?? 0) + by);
    },
    observe(name: string, labels: Record<string, string>, seconds: number) {
      const series = histograms.get(name) ?? new Map<string, Histogram>();
      histograms.set(name, series);
      const key = labelsOf(labels);
      const h = series.get(key) ?? { counts: BUCKETS.map(() => 0), sum: 0, count: 0 };
      series.set(key, h);
      // Cumulative buckets, as Prometheus reads them.
      for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) h.counts[i]! += 1;
      h.sum += seconds;
      h.count += 1;
    },
    /**
     * Adds gauges read at each scrape (queue depths the store knows); returns the removal, for
     * a worker or an outbox that stops.
     */
    collect(collector: GaugeCollector): () => void {
      collectors.add(collector);
      return () => void collectors.delete(collector);
    },
    /** Readings of every collector; one that fails is left out of this scrape. */
    async gauges(): Promise<GaugeSample[]> {
      const read = await Promise.allSettled([...collectors].map((c) => c()));
      return read.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
    },
    /** The text exposition format; `gauges` are read at scrape time. */
    render(gauges: Record<string, number>, samples: GaugeSample[] = []): string {
      const out: string[] = [];
      for (const [name, series] of counters) {
        out.push(`# TYPE ${name} counter`);
        for (const [labels, value] of series) out.push(`${name}{${labels}} ${value}`);
      }
      for (const [name, series] of histograms) {
        out.push(`# TYPE ${name} histogram`);
        for (const [labels, h] of series) {
          const sep = labels ? `${labels},` : '';
          for (const [i, b] of BUCKETS.entries()) out.push(`${name}_bucket{${sep}le="${b}"} ${h.counts[i]}`);
          out.push(`${name}_bucket{${sep}le="+Inf"} ${h.count}`);
          out.push(`${name}_sum{${labels}} ${h.sum}`);
          out.push(`${name}_count{${labels}} ${h.count}`);
        }
      }
      for (const [name, value] of Object.entries(gauges))
        out.push(`# TYPE ${name} gauge`, `${name} ${value}`);
      for (const name of new Set(samples.map((s) => s.name))) {
        out.push(`# TYPE ${name} gauge`);
        for (const s of samples.filter((x) => x.name === name))
          out.push(`${name}{${labelsOf(s.labels)}} ${s.value}`);
      }
      return `${out.join('\n')}\n`;
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const registries = new Map<string, Metrics>();

/**
 * The registry of the service the current work belongs to (see serviceScope). What is built at
 * boot (an app's hooks, a peer client) looks it up once, not on every request.
 */
export function scopeRegistry(): Metrics {
  const service = serviceScope.getStore() ?? '';
  let registry = registries.get(service);
  if (!registry) {
    registry = createMetrics();
    registries.set(service, registry);
  }
  return registry;
}

/**
 * The service's registry, reachable outside its app (peer calls are counted from the peer
 * client, gauges from outboxes and job loops). One per service, so that in the all-in-one mode
 * each service's /metrics shows only its own figures; a process running one service has one.
 */
export const serviceMetrics: Metrics = {
  inc: (...args) => scopeRegistry().inc(...args),
  observe: (...args) => scopeRegistry().observe(...args),
  collect: (collector) => scopeRegistry().collect(collector),
  gauges: () => scopeRegistry().gauges(),
  render: (...args) => scopeRegistry().render(...args),
};

/**
 * `GET /metrics` (Prometheus): requests by route, method and status with their latency, peer
 * calls, open event streams, and the gauges collected from outboxes and job queues. With `token` (the gateway) a scrape must send it as
 * `X-Internal-Token`, so the public entry never shows its metrics to anyone else.
 */
export function registerMetrics(app: FastifyInstance, options: { token?: string | undefined } = {}): void {
  const metrics = scopeRegistry();
  // Counted when the request ends, however it ends: a stream its client closed counts too.
  onRequestEnd(app, (request, _reply, { statusCode, durationMs }) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    const labels = { method: request.method, route, status: String(statusCode) };
    metrics.inc('http_requests_total', labels);
    metrics.observe('http_request_duration_seconds', { method: request.method, route }, durationMs / 1000);
  });
  app.get('/metrics', { schema: { hide: true }, config: { public: true } }, async (request, reply) => {
    const given = request.headers['x-internal-token'];
    if (options.token && !secretsEqual(typeof given === 'string' ? given : undefined, options.token))
      throw forbidden('Missing or invalid internal token');
    return reply
      .type('text/plain; version=0.0.4')
      .send(metrics.render({ sse_open_streams: openStreamCount(app.server) }, await metrics.gauges()));
  });
}

/**
 * One call to a peer service, as every caller counts it: `outcome` is the answer's status or
 * `timeout`/`unreachable`; an answered call (`startedAt` given) is also timed.
 */
export function recordPeerCall(metrics: Metrics, peer: string, outcome: string, startedAt?: number): void {
  metrics.inc('peer_calls_total', { peer, outcome });
  if (startedAt !== undefined)
    metrics.observe('peer_call_duration_seconds', { peer }, (performance.now() - startedAt) / 1000);
}
