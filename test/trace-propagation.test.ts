// One request through the gateway keeps one W3C trace id in every service it reaches, in the
// log fields Cloud Logging reads, and each service's /metrics counts it.
import { randomBytes } from 'node:crypto';
import { gatewayClient, startStack } from '@hs/testing';
import { describe, expect, it, vi } from 'vitest';

const SERVICES = ['gateway', 'orchestrator', 'wardrobe', 'commerce'] as const;

describe('trace context', () => {
  it('carries the caller’s traceparent through gateway, orchestrator and the tools’ services', async () => {
    const stack = await startStack({ services: [...SERVICES], env: { LOG_LEVEL: 'info' } });
    const client = gatewayClient(stack.url('gateway'));
    const gw = client.baseUrl;
    try {
      const owner = await client.login('tracer');
      const householdId = await client.household(owner, 'Home');
      const traceId = randomBytes(16).toString('hex');
      const created = await client.api(`/api/v1/households/${householdId}/orchestrator/missions`, {
        method: 'POST',
        token: owner.token,
        headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
        body: { mission_type: 'STYLE', initial_message: 'summer tops under 80' },
      });
      expect(created.status).toBe(201);
      const traced = (service: (typeof SERVICES)[number]) =>
        stack
          .logs(service)
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((l) => l['logging.googleapis.com/trace'] === traceId && l.msg === 'request');
      // Each service writes its request line once it has answered.
      for (const service of SERVICES) {
        await vi.waitFor(() => expect(traced(service).length, service).toBeGreaterThan(0), { timeout: 5000 });
        expect(traced(service)[0], service).toMatchObject({
          severity: 'INFO',
          'logging.googleapis.com/spanId': expect.stringMatching(/^[0-9a-f]{16}$/),
        });
      }
      // And /metrics counts it (the gateway's only with its internal token).
      expect((await fetch(`${gw}/metrics`)).status).toBe(403);
      const gatewayMetrics = await (
        await fetch(`${gw}/metrics`, { headers: { 'x-internal-token': 'dev-internal-token-gateway' } })
      ).text();
      expect(gatewayMetrics).toMatch(
        /^http_requests_total\{method="POST",route="[^"]*orchestrator[^"]*",status="201"\} 1$/m,
      );
      expect(gatewayMetrics).toMatch(
        /^http_request_duration_seconds_count\{method="POST",route="[^"]*orchestrator[^"]*"\} 1$/m,
      );
      // The forward to the orchestrator is a peer call like any other.
      expect(gatewayMetrics).toMatch(/^peer_calls_total\{peer="orchestrator",outcome="201"\} 1$/m);
      expect(gatewayMetrics).toMatch(/^peer_call_duration_seconds_count\{peer="orchestrator"\} [1-9]/m);
      const orchestratorMetrics = await (await fetch(`${stack.url('orchestrator')}/metrics`)).text();
      expect(orchestratorMetrics).toMatch(/^peer_calls_total\{peer="wardrobe",outcome="200"\} [1-9]/m);
      expect(orchestratorMetrics).toMatch(/^sse_open_streams 0$/m);
    } finally {
      await stack.close();
    }
  }, 60_000);
});
