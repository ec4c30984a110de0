// A create whose first attempt was saved but never answered (the gateway killed mid-write): once
// the key's lease has run out the retry runs the work again, and must find what the first attempt
// saved instead of making a second purchase request (a second thing to approve and pay for) or a
// second household.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildBuyflowGateway } from './buyflow-harness.ts';

type Harness = Awaited<ReturnType<typeof buildBuyflowGateway>>;
let t: Harness;
beforeEach(async () => {
  t = await buildBuyflowGateway();
});
afterEach(async () => t.close());

describe('a keyed create retried after a crash', () => {
  it('finds the purchase request its first attempt saved', async () => {
    const key = { 'idempotency-key': 'create-pr-crash-1' };
    const first = await t.post('/requests', t.adult, t.item, key);
    expect(first.statusCode).toBe(201);
    await dropIdempotencyRecords();
    const retried = await t.post('/requests', t.adult, t.item, key);
    expect(retried.statusCode).toBe(201);
    expect(retried.json().requestId).toBe(first.json().requestId);
    const list = (
      await t.app.inject({ method: 'GET', url: `${t.h}/requests`, headers: t.adult.auth })
    ).json();
    const items = (Array.isArray(list) ? list : list.items) as Array<{ title: string }>;
    expect(items.filter((r) => r.title === t.item.title)).toHaveLength(1);
    const created = (await t.gates()).filter(
      (g) => g.action === 'CREATE_PURCHASE_REQUEST' && g.targetId === first.json().requestId,
    );
    expect(created).toHaveLength(1);
    // Another key, or another body under the same key, is another request.
    const other = await t.post('/requests', t.adult, t.item, { 'idempotency-key': 'create-pr-crash-2' });
    expect(other.json().requestId).not.toBe(first.json().requestId);
  });

  it('finds the household its first attempt saved', async () => {
    const headers = { ...t.guardian.auth, 'idempotency-key': 'create-household-crash-1' };
    const create = () =>
      t.app.inject({ method: 'POST', url: '/api/v1/households', headers, payload: { name: 'Holiday home' } });
    const first = await create();
    expect(first.statusCode).toBe(201);
    await dropIdempotencyRecords();
    const retried = await create();
    expect(retried.statusCode).toBe(201);
    expect(retried.json().householdId).toBe(first.json().householdId);
    const mine = (
      await t.app.inject({ method: 'GET', url: '/api/v1/households', headers: t.guardian.auth })
    ).json() as Array<{ name: string }>;
    expect(mine.filter((h) => h.name === 'Holiday home')).toHaveLength(1);
  });
});

describe('a key used again once it no longer stands for its first create', () => {
  it('makes a new purchase request after the key’s life (24 h)', async () => {
    const key = { 'idempotency-key': 'reused-after-a-day' };
    const first = (await t.post('/requests', t.adult, t.item, key)).json();
    expect(
      (await t.post(`/requests/${first.requestId}/reject`, t.guardian, { reason: 'no' })).statusCode,
    ).toBe(200);
    await dropIdempotencyRecords();
    // A day and more later.
    await t.app.ctx.buyflow.requests.change(first.requestId, (r) => ({
      ...r,
      createdAt: new Date(Date.now() - 25 * 3600_000).toISOString(),
    }));
    const again = await t.post('/requests', t.adult, t.item, key);
    expect(again.statusCode).toBe(201);
    expect(again.json().requestId).not.toBe(first.requestId);
    expect(again.json().status).toBe('PENDING_APPROVAL');
  });

  it('never hands a household back to its creator once they are no longer a member', async () => {
    const headers = { ...t.guardian.auth, 'idempotency-key': 'household-then-left' };
    const create = () =>
      t.app.inject({ method: 'POST', url: '/api/v1/households', headers, payload: { name: 'Watched' } });
    const first = (await create()).json();
    const h = `/api/v1/households/${first.householdId}`;
    await t.app.inject({
      method: 'POST',
      url: `${h}/members`,
      headers: t.guardian.auth,
      payload: { memberId: t.adult.userId, role: 'PARENT_GUARDIAN' },
    });
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `${h}/members/${t.guardian.userId}`,
          headers: t.guardian.auth,
        })
      ).statusCode,
    ).toBe(204);
    await dropIdempotencyRecords();
    const again = await create();
    expect(again.statusCode).toBe(201);
    expect(again.json().householdId).not.toBe(first.householdId);
    expect(again.json().members.map((m: { memberId: string }) => m.memberId)).toEqual([t.guardian.userId]);
  });
});

/** What a crash leaves of a key's record once its lease has run out: nothing that answers. */
async function dropIdempotencyRecords() {
  const records = t.store.collection<{ id?: string }>('idempotency_keys');
  const page = await records.query({ limit: 500 });
  expect(page.items.length).toBeGreaterThan(0);
  for (const record of page.items) if (record.id) await records.delete(record.id);
  expect((await records.query({ limit: 500 })).items).toHaveLength(0);
}
