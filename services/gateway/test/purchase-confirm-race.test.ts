import { storeBackends } from '@hs/testing';
import { describe, expect, it } from 'vitest';
import { buildBuyflowGateway } from './buyflow-harness.ts';

const backends = storeBackends('buyflow-race');

describe.each(backends)('50 concurrent confirm-checkout calls with one token on %s', (_name, open, skip) => {
  it.skipIf(skip)(
    'exactly one succeeds, the other 49 get 409',
    async () => {
      const { store, cleanup } = open();
      // One user confirming 50 times at once: the per-user rate limit is not what is tested here.
      const t = await buildBuyflowGateway({ store, env: { RATE_LIMIT_CONFIRM_PER_MINUTE: '0' } });
      try {
        const { r, intent } = await t.toCartReady();
        const results = await Promise.all(
          Array.from({ length: 50 }, () =>
            t.post(`${r}/confirm-checkout`, t.adult, { confirmationToken: intent.confirmationToken }),
          ),
        );
        const codes = results.map((res) => res.statusCode);
        expect(codes.filter((c) => c === 200)).toHaveLength(1);
        expect(codes.filter((c) => c === 409)).toHaveLength(49);
        for (const res of results.filter((x) => x.statusCode === 409))
          expect(res.json()).toEqual({
            error: 'CONFLICT',
            message: 'Confirmation token has already been used',
          });
        const final = (
          await t.app.inject({ method: 'GET', url: `${t.h}${r}`, headers: t.adult.auth })
        ).json();
        expect(final.status).toBe('COMPLETED');
        expect(
          (await t.gates()).filter((g) => g.action === 'CONFIRM_CHECKOUT' && g.detail.outcome === 'ALLOWED'),
        ).toHaveLength(1);
      } finally {
        await t.close();
        cleanup();
      }
    },
    60_000,
  );
});
