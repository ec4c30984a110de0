// Checkout confirmation tokens are kept a week past their expiry, then purged (README,
// Deploying): within that week a presented token still gets its own answer (used 409, expired
// 403 "has expired"); after it the token is unknown (403 "is invalid"). Real sqlite throughout.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore, type Store } from '@hs/store';
import { storeBackends } from '@hs/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCheckoutTokenStore } from '../src/adapters/checkout-token-store.ts';
import { purgeCheckoutTokens } from '../src/app.ts';
import { CHECKOUT_TOKEN_RETENTION_MS, type StoredCheckoutToken } from '../src/domain/confirmation-token.ts';
import { buildApp, loadGatewayConfig } from '../src/index.ts';
import { buildBuyflowGateway } from './buyflow-harness.ts';

const DAY = 24 * 3600_000;
let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'checkout-purge-'));
  store = createStore({ backend: 'sqlite', file: join(dir, 'gateway.sqlite') });
});
afterEach(async () => {
  vi.useRealTimers();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const tokensOf = (s: Store) => s.collection<StoredCheckoutToken>('checkout_tokens');
const allTokens = async (s: Store) => (await tokensOf(s).query({ limit: 1000 })).items;

/** A token record as a gateway saved it `expiredAgoMs` ago (legacy: without purgeAfter). */
function record(n: number, expiredAgoMs: number, now = Date.now()): StoredCheckoutToken {
  return {
    tokenHash: `h${String(n).padStart(4, '0')}`,
    householdId: 'hh_1',
    requestId: `pr_${n}`,
    intentId: `pi_${n}`,
    actorId: 'usr_1',
    expiresAt: new Date(now - expiredAgoMs).toISOString(),
    usedAt: null,
    createdAt: new Date(now - expiredAgoMs - 1800_000).toISOString(),
  };
}

describe('checkout token records: kept a week past expiry, then purged', () => {
  it('writes purgeAfter = expiresAt + 7 days at save', async () => {
    const tokens = createCheckoutTokenStore(store);
    await tokens.save(record(1, -1800_000));
    const [saved] = await allTokens(store);
    expect(CHECKOUT_TOKEN_RETENTION_MS).toBe(7 * DAY);
    expect(saved!.purgeAfter).toBe(Date.parse(saved!.expiresAt) + 7 * DAY);
  });

  it('through the routes: used and expired tokens keep their answers for the week, then are unknown', async () => {
    const t = await buildBuyflowGateway({ store });
    try {
      const start = async () => {
        const { r, intent } = await t.toCartReady();
        const confirm = () =>
          t.post(`${r}/confirm-checkout`, t.adult, { confirmationToken: intent.confirmationToken });
        return { r, intent, confirm };
      };
      const used = await start();
      expect((await used.confirm()).statusCode).toBe(200);
      const expired = await start();
      // The second token expired a day ago (its purgeAfter moved with it, as a save then made it).
      const tokens = tokensOf(store);
      const expiredDoc = (await allTokens(store)).find((d) => d.requestId === expired.r.split('/')[2])!;
      const expiresAt = new Date(Date.now() - DAY).toISOString();
      await tokens.put(expiredDoc.tokenHash, {
        ...expiredDoc,
        expiresAt,
        purgeAfter: Date.parse(expiresAt) + CHECKOUT_TOKEN_RETENTION_MS,
      });
      const before = await allTokens(store);
      const requestsBefore = (
        await t.app.inject({ method: 'GET', url: `${t.h}/requests`, headers: t.adult.auth })
      ).body;

      const store_ = createCheckoutTokenStore(store);
      // Six days after the expired one's expiry (and well within the used one's week): nothing goes.
      expect(await store_.purgeExpired(Date.now() + 5 * DAY)).toBe(0);
      expect(await allTokens(store)).toEqual(before);
      expect((await used.confirm()).json()).toEqual({
        error: 'CONFLICT',
        message: 'Confirmation token has already been used',
      });
      expect((await expired.confirm()).json()).toEqual({
        error: 'FORBIDDEN',
        message: 'Confirmation token has expired',
      });

      // A week and a bit past the expired one's expiry: it goes, the used one (expiring in 30 min) stays.
      expect(await store_.purgeExpired(Date.now() + 6 * DAY + 60_000)).toBe(1);
      expect((await allTokens(store)).map((d) => d.tokenHash)).toEqual(
        before.filter((d) => d.tokenHash !== expiredDoc.tokenHash).map((d) => d.tokenHash),
      );
      expect((await expired.confirm()).json()).toEqual({
        error: 'FORBIDDEN',
        message: 'Confirmation token is invalid',
      });
      expect((await used.confirm()).json()).toMatchObject({ error: 'CONFLICT' });
      // Nothing else changed: the requests read back the same.
      expect(
        (await t.app.inject({ method: 'GET', url: `${t.h}/requests`, headers: t.adult.auth })).body,
      ).toBe(requestsBefore);

      // A week past the used one's expiry it goes too.
      expect(await store_.purgeExpired(Date.now() + 7 * DAY + 1800_000 + 60_000)).toBe(1);
      expect(await allTokens(store)).toEqual([]);
      expect((await used.confirm()).json()).toEqual({
        error: 'FORBIDDEN',
        message: 'Confirmation token is invalid',
      });
    } finally {
      await t.close();
    }
  });

  it('deletes at most a batch per call, oldest first, and the scheduled purge drains batch by batch', async () => {
    const tokens = createCheckoutTokenStore(store);
    for (let n = 0; n < 7; n++) await tokens.save(record(n, 8 * DAY + n * 60_000));
    await tokens.save(record(100, 6 * DAY)); // within its week
    expect(await tokens.purgeExpired(Date.now(), 2)).toBe(2);
    // The two that expired first went.
    expect((await allTokens(store)).map((d) => d.tokenHash).sort()).toEqual(
      ['h0000', 'h0001', 'h0002', 'h0003', 'h0004', 'h0100'].sort(),
    );
    expect(await purgeCheckoutTokens(tokens, { batch: 2, maxBatches: 1 })).toBe(2);
    expect(await allTokens(store)).toHaveLength(4);
    expect(await purgeCheckoutTokens(tokens, { batch: 2 })).toBe(3);
    expect((await allTokens(store)).map((d) => d.tokenHash)).toEqual(['h0100']);
  });

  it('records saved without purgeAfter (an earlier version) are purged by their expiresAt', async () => {
    const legacy = tokensOf(store);
    await legacy.create('old', { ...record(1, 8 * DAY), tokenHash: 'old' });
    await legacy.create('recent', { ...record(2, 6 * DAY), tokenHash: 'recent' });
    await legacy.create('live', { ...record(3, -1800_000), tokenHash: 'live' });
    const tokens = createCheckoutTokenStore(store);
    await tokens.save(record(4, 8 * DAY));
    expect(await tokens.purgeExpired(Date.now(), 1)).toBe(1);
    expect((await allTokens(store)).map((d) => d.tokenHash).sort()).toEqual(['live', 'old', 'recent']);
    expect(await tokens.purgeExpired()).toBe(1);
    expect((await allTokens(store)).map((d) => d.tokenHash).sort()).toEqual(['live', 'recent']);
    expect(await tokens.purgeExpired()).toBe(0);
    // The ones kept are untouched (no purgeAfter written into them).
    expect((await allTokens(store)).every((d) => d.purgeAfter === undefined)).toBe(true);
  });

  it('the gateway runs the purge on the idempotency purge schedule (hourly)', async () => {
    const tokens = createCheckoutTokenStore(store);
    await tokens.save(record(1, 8 * DAY));
    await tokens.save(record(2, 6 * DAY));
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const config = loadGatewayConfig({
      APP_ENV: 'test',
      CARTPREP_BASE_URL: 'http://127.0.0.1:9',
      ARTIFACTS_AUDIT_BASE_URL: 'http://127.0.0.1:9',
      BUYFLOW_INTERNAL_TOKEN: 'test-buyflow-token',
    });
    const app = await buildApp({ config, store });
    try {
      await app.ready();
      expect(await allTokens(store)).toHaveLength(2);
      vi.advanceTimersByTime(3_600_000);
      await vi.waitFor(async () =>
        expect((await allTokens(store)).map((d) => d.tokenHash)).toEqual(['h0002']),
      );
    } finally {
      await app.close();
    }
  });
});

describe.each(storeBackends('checkout-purge'))('the purge query on %s', (_name, open, skip) => {
  it.skipIf(skip)(
    'deletes past-retention records (with or without purgeAfter) a batch at a time, keeps the rest',
    async () => {
      const { store: s, cleanup } = open();
      try {
        const tokens = createCheckoutTokenStore(s);
        for (let n = 0; n < 3; n++) await tokens.save(record(n, 8 * DAY + n * 60_000));
        await tokens.save(record(10, 6 * DAY));
        await tokens.save(record(11, -1800_000));
        await tokensOf(s).create('legacy-old', { ...record(20, 9 * DAY), tokenHash: 'legacy-old' });
        await tokensOf(s).create('legacy-recent', { ...record(21, 5 * DAY), tokenHash: 'legacy-recent' });
        expect(await tokens.purgeExpired(Date.now(), 2)).toBe(2);
        expect(await allTokens(s)).toHaveLength(5);
        expect(await tokens.purgeExpired(Date.now(), 2)).toBe(2); // the last new one, then the legacy one
        expect((await allTokens(s)).map((d) => d.tokenHash).sort()).toEqual([
          'h0010',
          'h0011',
          'legacy-recent',
        ]);
        expect(await tokens.purgeExpired(Date.now(), 2)).toBe(0);
      } finally {
        await s.close();
        cleanup();
      }
    },
    30_000,
  );
});
