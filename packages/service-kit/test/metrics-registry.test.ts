import { describe, expect, it } from 'vitest';
import { createMetrics } from '../src/metrics.ts';

describe('the metrics registry', () => {
  it('adds up a label set seen again and keeps different ones apart, in label order', () => {
    const metrics = createMetrics();
    for (let i = 0; i < 3; i++)
      metrics.inc('http_requests_total', { method: 'GET', route: '/a', status: '200' });
    metrics.inc('http_requests_total', { method: 'GET', route: '/a', status: '404' });
    metrics.inc('http_requests_total', { route: '/a', method: 'GET', status: '200' });
    const text = metrics.render({});
    expect(text).toContain('http_requests_total{method="GET",route="/a",status="200"} 3');
    expect(text).toContain('http_requests_total{method="GET",route="/a",status="404"} 1');
    expect(text).toContain('http_requests_total{route="/a",method="GET",status="200"} 1');
  });

  it('escapes backslashes, quotes and newlines in label values, however often the set recurs', () => {
    const metrics = createMetrics();
    const labels = { route: 'a\\b"c\nd' };
    metrics.inc('odd_total', labels);
    metrics.inc('odd_total', labels, 2);
    expect(metrics.render({})).toContain('odd_total{route="a\\\\b\\"c\\nd"} 3');
  });

  it('fills cumulative histogram buckets', () => {
    const metrics = createMetrics();
    metrics.observe('took_seconds', { route: '/a' }, 0.02);
    metrics.observe('took_seconds', { route: '/a' }, 3);
    const text = metrics.render({});
    expect(text).toContain('took_seconds_bucket{route="/a",le="0.01"} 0');
    expect(text).toContain('took_seconds_bucket{route="/a",le="0.025"} 1');
    expect(text).toContain('took_seconds_bucket{route="/a",le="5"} 2');
    expect(text).toContain('took_seconds_bucket{route="/a",le="+Inf"} 2');
    expect(text).toContain('took_seconds_count{route="/a"} 2');
  });
});
