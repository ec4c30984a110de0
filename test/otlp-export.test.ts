// With OTEL_EXPORTER_OTLP_ENDPOINT set, each service exports its spans over OTLP/HTTP (JSON) to
// a receiver this test starts: one request through the gateway is one trace across the
// services it touched, in the export and in the log lines.
import { gatewayClient, type OtlpReceiver, startOtlpReceiver, startStack } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const SERVICES = ['gateway', 'orchestrator', 'wardrobe', 'commerce'] as const;

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

const requestLines = (log: string, traceId: string) =>
  log
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l['logging.googleapis.com/trace'] === traceId && l.msg === 'request');

describe('OpenTelemetry export', () => {
  it('exports one trace spanning the gateway and the services behind it, named as in the logs, and counted', async () => {
    const stack = await startStack({
      services: [...SERVICES],
      env: {
        LOG_LEVEL: 'info',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
    });
    const client = gatewayClient(stack.url('gateway'));
    try {
      const owner = await client.login('otel');
      const householdId = await client.household(owner, 'Home');
      const path = `/api/v1/households/${householdId}/orchestrator/missions`;
      // No traceparent from the client: the gateway starts the trace.
      const created = await client.api(path, {
        method: 'POST',
        token: owner.token,
        body: { mission_type: 'STYLE', initial_message: 'summer tops under 80' },
      });
      expect(created.status).toBe(201);

      const root = await vi.waitFor(
        () => {
          const span = receiver.spans.find(
            (s) => s.service === 'gateway' && s.attributes['url.path'] === path,
          );
          expect(span).toBeDefined();
          return span!;
        },
        { timeout: 10_000 },
      );
      expect(root).toMatchObject({
        kind: 2,
        parentSpanId: '',
        attributes: { 'http.response.status_code': 201 },
      });
      const traceId = root.traceId;
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      // The orchestrator's server span is a child of the gateway's; its calls to wardrobe and
      // commerce continue the same trace.
      await vi.waitFor(
        () => {
          const inTrace = receiver.spans.filter((s) => s.traceId === traceId);
          expect(new Set(inTrace.map((s) => s.service))).toEqual(new Set(SERVICES));
          const orchestrator = inTrace.find(
            (s) => s.service === 'orchestrator' && s.parentSpanId === root.spanId,
          );
          expect(orchestrator).toMatchObject({ kind: 2, name: expect.stringMatching(/^POST \//) });
          // Its call to the wardrobe is a client span, under which the wardrobe's server span hangs.
          const wardrobe = inTrace.find((s) => s.service === 'wardrobe' && s.kind === 2);
          expect(inTrace.find((s) => s.spanId === wardrobe?.parentSpanId)).toMatchObject({
            service: 'orchestrator',
            kind: 3,
            attributes: { 'peer.service': 'wardrobe', 'http.response.status_code': 200 },
          });
        },
        { timeout: 10_000 },
      );
      // The log lines name the same trace and the exported spans.
      for (const service of SERVICES) {
        const lines = requestLines(stack.logs(service), traceId);
        expect(lines.length, service).toBeGreaterThan(0);
        const exported = new Set(receiver.spans.filter((s) => s.service === service).map((s) => s.spanId));
        for (const line of lines)
          expect(exported.has(line['logging.googleapis.com/spanId'] as string), service).toBe(true);
      }
      expect(receiver.contentTypes.every((t) => t.startsWith('application/json'))).toBe(true);
      // The mission's first turn ran on the stub model: /metrics counts the turn and its model calls.
      await vi.waitFor(
        async () => {
          const metrics = await (await fetch(`${stack.url('orchestrator')}/metrics`)).text();
          expect(metrics).toMatch(/^turn_duration_seconds_count\{outcome="completed"\} 1$/m);
          expect(metrics).toMatch(/^model_calls_total\{model="stub",outcome="ok"\} [1-9]\d*$/m);
          expect(metrics).toMatch(/^model_call_duration_seconds_count\{model="stub"\} [1-9]\d*$/m);
          expect(metrics).toMatch(/^outbox_backlog\{outbox="[a-z_]+"\} \d+$/m);
        },
        { timeout: 10_000 },
      );
    } finally {
      await stack.close();
    }
  }, 60_000);

  it('applies OTEL_TRACES_SAMPLER: always_off exports no span at all', async () => {
    const stack = await startStack({
      services: ['gateway'],
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_TRACES_SAMPLER: 'always_off',
      },
    });
    try {
      const before = receiver.spans.length;
      for (let i = 0; i < 5; i++) expect((await fetch(`${stack.url('gateway')}/api/v1/me`)).status).toBe(401);
      // Well past the export delay: a span would be at the receiver by now.
      await new Promise((r) => setTimeout(r, 1000));
      expect(receiver.spans.slice(before).filter((s) => s.service === 'gateway')).toEqual([]);
    } finally {
      await stack.close();
    }
  });
});
