// /ready on real processes: the orchestrator is not ready while the peers it needs are down.
import { startStack } from '@hs/testing';
import { describe, expect, it, vi } from 'vitest';

describe('/ready', () => {
  it('is 503 on the orchestrator while wardrobe and commerce are down, 200 once they are up', async () => {
    const stack = await startStack({ services: ['orchestrator'] });
    const ready = async () => {
      const res = await fetch(`${stack.url('orchestrator')}/ready`);
      return { status: res.status, body: await res.json() };
    };
    try {
      expect(await ready()).toEqual({
        status: 503,
        body: {
          status: 'not_ready',
          service: 'orchestrator',
          checks: { store: true, wardrobe: false, commerce: false },
        },
      });
      await Promise.all([stack.start('wardrobe'), stack.start('commerce')]);
      // Peer answers are cached for a few seconds.
      await vi.waitFor(async () => expect((await ready()).status).toBe(200), {
        timeout: 10_000,
        interval: 500,
      });
    } finally {
      await stack.close();
    }
  }, 60_000);

  it('counts a peer URL that reaches another service as that peer being down', async () => {
    // A slip in the settings: COMMERCE_BASE_URL names wardrobe, which answers /health 200 too.
    const stack = await startStack({ services: ['wardrobe'] });
    try {
      await stack.start('orchestrator', { COMMERCE_BASE_URL: stack.url('wardrobe') });
      const res = await fetch(`${stack.url('orchestrator')}/ready`);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { checks: unknown }).checks).toEqual({
        store: true,
        wardrobe: true,
        commerce: false,
      });
    } finally {
      await stack.close();
    }
  }, 60_000);
});
