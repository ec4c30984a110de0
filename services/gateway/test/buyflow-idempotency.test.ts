import { createStore } from '@hs/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIdempotencyStore } from '../src/adapters/idempotency-store.ts';
import { buildBuyflowGateway } from './buyflow-harness.ts';

let t: Awaited<ReturnType<typeof buildBuyflowGateway>>;
beforeEach(async () => {
  t = await buildBuyflowGateway();
});
afterEach(async () => t.close());

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body, without a second request', async () => {
    const key = { 'idempotency-key': 'create-1' };
    const first = await t.post('/requests', t.adult, t.item, key);
    const again = await t.post('/requests', t.adult, t.item, key);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.headers['idempotent-replayed']).toBe('true');
    const household = (await t.app.inject({ method: 'GET', url: t.h, headers: t.adult.auth })).json();
    expect(household.purchaseRequests).toHaveLength(1);
    expect((await t.gates()).filter((g) => g.action === 'CREATE_PURCHASE_REQUEST')).toHaveLength(1);
  });

  it('refuses the same key with a different body (422)', async () => {
    const key = { 'idempotency-key': 'create-2' };
    await t.post('/requests', t.adult, t.item, key);
    const res = await t.post('/requests', t.adult, { ...t.item, price: 81 }, key);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: 'VALIDATION_ERROR',
      message: 'Idempotency-Key was already used with a different request body',
      details: [
        {
          loc: ['headers', 'idempotency-key'],
          msg: 'was already used with a different request body',
          type: 'idempotency_mismatch',
        },
      ],
    });
  });

  it('scopes keys per user: another user with the same key gets their own request', async () => {
    const key = { 'idempotency-key': 'shared' };
    const a = (await t.post('/requests', t.adult, t.item, key)).json();
    const b = (await t.post('/requests', t.guardian, t.item, key)).json();
    expect(a.requestId).not.toBe(b.requestId);
  });

  it('answers 409 to a retry while the first purchase intent is still running, then replays the same token', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const r = `/requests/${pr.requestId}`;
    await t.post(`${r}/approve`, t.guardian);
    t.cartprep.state.delayMs = 300;
    const key = { 'idempotency-key': 'intent-1' };
    const first = t.post(`${r}/purchase-intents`, t.adult, {}, key);
    await new Promise((res) => setTimeout(res, 100));
    const during = await t.post(`${r}/purchase-intents`, t.adult, {}, key);
    expect(during.json()).toEqual({
      error: 'CONFLICT',
      message: 'A request with this Idempotency-Key is still being processed',
    });
    expect(during.headers['retry-after']).toBe('1');
    const done = await first;
    expect(done.statusCode).toBe(201);
    const replay = await t.post(`${r}/purchase-intents`, t.adult, {}, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(done.json());
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(t.cartprep.jobs).toHaveLength(1);
    // The stored record does not hold the confirmation token readable.
    const records = await t.store.collection('idempotency_keys').query({});
    expect(JSON.stringify(records.items)).not.toContain(done.json().confirmationToken);
  });

  it('lets a failed attempt be retried with the same key (nothing was done)', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const r = `/requests/${pr.requestId}`;
    await t.post(`${r}/approve`, t.guardian);
    t.cartprep.state.failWith = 503;
    const key = { 'idempotency-key': 'intent-2' };
    expect((await t.post(`${r}/purchase-intents`, t.adult, {}, key)).statusCode).toBe(502);
    t.cartprep.state.failWith = 0;
    expect((await t.post(`${r}/purchase-intents`, t.adult, {}, key)).statusCode).toBe(201);
  });

  it('replays a confirmed checkout instead of reporting the token as used', async () => {
    const { r, intent } = await t.toCartReady();
    const key = { 'idempotency-key': 'confirm-1' };
    const body = { confirmationToken: intent.confirmationToken };
    const first = await t.post(`${r}/confirm-checkout`, t.adult, body, key);
    const again = await t.post(`${r}/confirm-checkout`, t.adult, body, key);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('rejects a malformed key (422)', async () => {
    const res = await t.post('/requests', t.adult, t.item, { 'idempotency-key': 'has space' });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].loc).toEqual(['headers', 'idempotency-key']);
  });
});

describe('expired idempotency keys', () => {
  it('are purged from the store, while live ones stay and still replay', async () => {
    const store = createStore({ backend: 'inmemory' });
    const keys = createIdempotencyStore(store, { ttlMs: 1000 });
    let runs = 0;
    const exec = async () => ({ status: 201, body: { n: ++runs } });
    await keys.run('usr_1 POST /a', 'old-key', { x: 1 }, exec);
    await keys.run('usr_1 POST /b', 'live-key', { x: 1 }, exec);
    const later = Date.now() + 500;
    expect(await keys.purgeExpired(later)).toBe(0);
    expect(await keys.purgeExpired(Date.now() + 5000)).toBe(2);
    expect(await store.collection('idempotency_keys').count()).toBe(0);
    // A purged key is simply new again.
    expect((await keys.run('usr_1 POST /a', 'old-key', { x: 2 }, exec)).replayed).toBe(false);
    expect((await keys.run('usr_1 POST /a', 'old-key', { x: 2 }, exec)).replayed).toBe(true);
  });
});
