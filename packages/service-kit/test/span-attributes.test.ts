import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSpan, startTracing, stopTracing } from '../src/tracing.ts';

// Export is on (to a loopback port where nothing listens; the spans here are never flushed).
beforeAll(async () => {
  await startTracing('span-test', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
});
afterAll(() => stopTracing('span-test'));

/** A server span under a remote parent that was or wasn't sampled, and how often its attributes were built. */
function spanUnder(sampled: boolean) {
  let built = 0;
  const parent = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), sampled };
  const span = startSpan('GET /x', 'server', parent, () => {
    built++;
    return { 'url.path': '/x' };
  });
  return { span, built };
}

describe('span attributes', () => {
  it('are built and set when the span is sampled', () => {
    const { span, built } = spanUnder(true);
    expect(span?.isRecording()).toBe(true);
    expect(built).toBe(1);
    expect((span as unknown as { attributes: Record<string, unknown> }).attributes).toMatchObject({
      'url.path': '/x',
    });
    // Not ended: an ended span would be exported at shutdown, retried against the closed port.
  });

  it('are never built for a span the caller asked not to sample', () => {
    const { span, built } = spanUnder(false);
    expect(span?.isRecording()).toBe(false);
    expect(built).toBe(0);
    span?.end();
  });
});
