import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSpan, startTracing, stopTracing } from '../src/tracing.ts';

// Export is on (to a loopback port where nothing listens; the spans here are never flushed).
beforeAll(async () => {
  await startTracing('span-test', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
});
afterAll(() => stopTracing('span-test'));

const parent = (sampled: boolean) => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), sampled });

describe('span attributes', () => {
  it('are built and set when the span is sampled', () => {
    let built = 0;
    const span = startSpan('GET /x', 'server', parent(true), () => {
      built++;
      return { 'url.path': '/x' };
    });
    expect(span?.isRecording()).toBe(true);
    expect(built).toBe(1);
    expect((span as unknown as { attributes: Record<string, unknown> }).attributes).toMatchObject({
      'url.path': '/x',
    });
    // Not ended: an ended span would be exported at shutdown, retried against the closed port.
  });

  it('are never built for a span the caller asked not to sample', () => {
    let built = 0;
    const span = startSpan('GET /x', 'server', parent(false), () => {
      built++;
      return { 'url.path': '/x' };
    });
    expect(span?.isRecording()).toBe(false);
    expect(built).toBe(0);
    span?.end();
  });
});
