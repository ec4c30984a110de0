// A keyed attempt holds its key for a lease: a retry arriving after it runs the work again (the
// attempt is taken for dead). With the peers' timeout raised past the default minute, a live
// attempt still waiting on its peers must keep the key, or a retry would run the work beside it.
import { describe, expect, it } from 'vitest';
import type { IdempotencyRecord } from '../src/domain/idempotency.ts';
import { buildBuyflowGateway } from './buyflow-harness.ts';

async function leaseWhileRunning(env: Record<string, string>): Promise<number> {
  const t = await buildBuyflowGateway({ env, cartprepDelayMs: 600 });
  try {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    await t.post(`/requests/${pr.requestId}/approve`, t.guardian);
    const started = Date.now();
    const intent = t.post(`/requests/${pr.requestId}/purchase-intents`, t.adult, undefined, {
      'idempotency-key': 'lease-key-1',
    });
    let running: IdempotencyRecord | undefined;
    for (let i = 0; i < 50 && !running; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const page = await t.store.collection<IdempotencyRecord>('idempotency_keys').query({ limit: 50 });
      running = page.items.find((r) => r.state === 'RUNNING' && r.scope.includes('/purchase-intents'));
    }
    expect((await intent).statusCode).toBe(201);
    expect(running).toBeDefined();
    return running!.leaseUntil - started;
  } finally {
    await t.close();
  }
}

describe('the lease of a keyed attempt', () => {
  it('is a minute with the default peer timeout', async () => {
    const lease = await leaseWhileRunning({ INTERNAL_API_TIMEOUT_SECONDS: '10' });
    expect(lease).toBeGreaterThan(59_000);
    expect(lease).toBeLessThanOrEqual(61_000);
  });

  it('outlasts two peer calls when INTERNAL_API_TIMEOUT_SECONDS is raised (120 s: over 4 minutes)', async () => {
    const lease = await leaseWhileRunning({ INTERNAL_API_TIMEOUT_SECONDS: '120' });
    expect(lease).toBeGreaterThan(2 * 120_000);
  });
});
