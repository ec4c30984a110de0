import { StoreUnavailableError } from '@hs/store';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSpendingPolicyRepository } from '../src/adapters/spending-policy-repository.ts';
import {
  judgeStale,
  monthOf,
  RESERVATION_FENCE_MS,
  type SpendingLedger,
} from '../src/domain/spending-policy.ts';
import { buildBuyflowGateway } from './buyflow-harness.ts';
import { storeWith } from './store-with.ts';

/*
 * An approval whose ledger write landed after its caller was told it failed (a Firestore commit
 * on its way at the deadline) leaves the request PENDING_APPROVAL with its amount reserved: a
 * "phantom". It must neither block the member's budget for good nor be given back while an
 * approval could still reach the request.
 */
type Harness = Awaited<ReturnType<typeof buildBuyflowGateway>>;
let t: Harness;
beforeEach(async () => {
  t = await buildBuyflowGateway();
  await t.app.inject({
    method: 'PUT',
    url: `${t.h}/members/${t.adult.userId}/spending-policy`,
    headers: t.guardian.auth,
    payload: { perRequestLimit: null, monthlyLimit: 100, currency: 'EUR' },
  });
});
afterEach(async () => t.close());

const month = () => monthOf(new Date().toISOString());
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const policies = () => createSpendingPolicyRepository(t.store);
const ledger = async () => policies().getLedger(t.household.householdId, t.adult.userId, month(), 'EUR');
const create = async (price = 80) => (await t.post('/requests', t.adult, { ...t.item, price })).json();
const approve = (requestId: string) => t.post(`/requests/${requestId}/approve`, t.guardian);
const budget = async (requestId: string) =>
  (
    await t.app.inject({ method: 'GET', url: `${t.h}/requests/${requestId}`, headers: t.guardian.auth })
  ).json().budget;

/** What a timed-out approval leaves: the amount reserved at `reservedAt`, the request untouched. */
async function phantom(request: { requestId: string }, reservedAt: string) {
  const repo = policies();
  const policy = await repo.getPolicy(t.household.householdId, t.adult.userId);
  await repo.reserve(request as never, month(), policy, reservedAt);
}

describe('reservations an approval left behind', () => {
  it('block the budget while the approval could still land, yet do not show as spent', async () => {
    const stuck = await create(80);
    await phantom(stuck, ago(60_000));
    const next = await create(50);
    const refused = await approve(next.requestId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('remaining monthly budget of 20.00 EUR');
    // spentThisMonth counts approved-or-later requests only.
    expect(await budget(next.requestId)).toMatchObject({ spentThisMonth: 0, remaining: 100 });
    expect((await ledger())?.amounts).toEqual({ [stuck.requestId]: 80 });
  });

  it('are given back once past the fence, so the approval they blocked goes through', async () => {
    const stuck = await create(80);
    await phantom(stuck, ago(RESERVATION_FENCE_MS + 1000));
    const next = await create(50);
    const approved = await approve(next.requestId);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().status).toBe('APPROVED');
    expect(await ledger()).toMatchObject({ amounts: { [next.requestId]: 50 }, pending: {} });
    expect(await budget(next.requestId)).toMatchObject({ spentThisMonth: 50, remaining: 50 });
    // The stuck request can still be approved later: it reserves again, within what is left.
    expect((await approve(stuck.requestId)).statusCode).toBe(409);
  });

  it('are kept (and settled) when their request was approved after all', async () => {
    const first = await create(80);
    expect((await approve(first.requestId)).statusCode).toBe(200);
    // Its settling write was lost: the reservation still looks held by an approval.
    await t.store
      .collection<SpendingLedger>('spending_ledgers')
      .update(`${t.household.householdId}:${t.adult.userId}:${month()}:EUR`, (l) => ({
        ...l!,
        pending: { [first.requestId]: ago(RESERVATION_FENCE_MS + 1000) },
      }));
    const next = await create(50);
    expect((await approve(next.requestId)).statusCode).toBe(409);
    expect(await ledger()).toMatchObject({ amounts: { [first.requestId]: 80 }, pending: {} });
    expect(await budget(next.requestId)).toMatchObject({ spentThisMonth: 80, remaining: 20 });
  });

  it('are settled by the approval that reserved them', async () => {
    const one = await create(30);
    expect((await approve(one.requestId)).statusCode).toBe(200);
    expect(await ledger()).toMatchObject({ amounts: { [one.requestId]: 30 }, pending: {} });
  });

  it('are held anew by a second approval of the same request, and count once', async () => {
    const stuck = await create(80);
    await phantom(stuck, ago(RESERVATION_FENCE_MS + 1000));
    const approved = await approve(stuck.requestId);
    expect(approved.statusCode).toBe(200);
    expect(await ledger()).toMatchObject({ amounts: { [stuck.requestId]: 80 }, pending: {} });
    expect(await budget(stuck.requestId)).toMatchObject({ spentThisMonth: 80, remaining: 20 });
  });
});

describe('judging stale reservations', () => {
  const base = { householdId: 'h', memberId: 'm', month: '2026-11', currency: 'EUR' };
  it('leaves an entry another approval has held again since it was read', () => {
    const read = new Map([['r1', '2026-11-01T00:00:00.000Z']]);
    const now: SpendingLedger = {
      ...base,
      amounts: { r1: 10 },
      pending: { r1: '2026-11-01T00:09:00.000Z' },
    };
    expect(judgeStale(now, read, new Set())).toBeNull();
  });
  it('gives back the stale entries of requests not spending and settles the others', () => {
    const at = '2026-11-01T00:00:00.000Z';
    const ledger: SpendingLedger = {
      ...base,
      amounts: { gone: 10, kept: 20, young: 5 },
      pending: { gone: at, kept: at, young: '2026-11-01T00:09:00.000Z' },
    };
    const judged = judgeStale(
      ledger,
      new Map([
        ['gone', at],
        ['kept', at],
      ]),
      new Set(['kept']),
    );
    expect(judged).toMatchObject({
      amounts: { kept: 20, young: 5 },
      pending: { young: '2026-11-01T00:09:00.000Z' },
    });
  });
});

describe('an approval whose move of the request fails with its outcome unknown', () => {
  /** A store whose purchase requests refuse their next update (a commit that timed out). */
  function storeFailingNextRequestUpdate() {
    const failing = { next: false };
    const store = storeWith('purchase_requests', (collection) => ({
      update: async (id, mutate) => {
        if (failing.next) {
          failing.next = false;
          throw new StoreUnavailableError('STORE_TIMEOUT', 'timed out', { outcomeUnknown: true });
        }
        return collection.update(id, mutate);
      },
    }));
    return { store, failing };
  }

  it('keeps its reservation for judging; the retried approval reserves nothing twice and settles it', async () => {
    const made = storeFailingNextRequestUpdate();
    const f = await buildBuyflowGateway({ store: made.store });
    try {
      const created = (await f.post('/requests', f.adult, { ...f.item, price: 40 })).json();
      made.failing.next = true;
      const failed = await f.post(`/requests/${created.requestId}/approve`, f.guardian);
      expect(failed.statusCode).toBe(503);
      const key = `${f.household.householdId}:${f.adult.userId}:${month()}:EUR`;
      const ledgers = f.store.collection<SpendingLedger>('spending_ledgers');
      // The write may still land: the amount stays held, not shown as spent.
      expect((await ledgers.get(key))?.amounts).toEqual({ [created.requestId]: 40 });
      expect(Object.keys((await ledgers.get(key))?.pending ?? {})).toEqual([created.requestId]);
      const retried = await f.post(`/requests/${created.requestId}/approve`, f.guardian);
      expect(retried.statusCode).toBe(200);
      expect(await ledgers.get(key)).toMatchObject({ amounts: { [created.requestId]: 40 }, pending: {} });
    } finally {
      await f.close();
    }
  });
});

describe('two approvals of one request racing across midnight at a month’s end', () => {
  /** A store whose purchase-request updates wait at a gate while `hold` is set. */
  function gatedStore() {
    const gate = { hold: false, waiting: 0, open: () => {}, opened: Promise.resolve() };
    const store = storeWith('purchase_requests', (collection) => ({
      update: async (id, mutate) => {
        if (gate.hold) {
          gate.waiting++;
          await gate.opened;
        }
        return collection.update(id, mutate);
      },
    }));
    return { store, gate };
  }

  it('charge the request to the month its approval landed in, and nothing to the other', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-31T23:59:00Z'));
    const { store, gate } = gatedStore();
    const g = await buildBuyflowGateway({ store });
    try {
      await g.app.inject({
        method: 'PUT',
        url: `${g.h}/members/${g.adult.userId}/spending-policy`,
        headers: g.guardian.auth,
        payload: { perRequestLimit: null, monthlyLimit: 100, currency: 'EUR' },
      });
      const r = (await g.post('/requests', g.adult, { ...g.item, price: 80 })).json();
      // Approval A at 23:59:59 on 31 December; its write of the request is slow.
      vi.setSystemTime(new Date('2026-12-31T23:59:59Z'));
      gate.opened = new Promise((resolve) => {
        gate.open = resolve;
      });
      gate.hold = true;
      const a = g.post(`/requests/${r.requestId}/approve`, g.guardian);
      await vi.waitFor(() => expect(gate.waiting).toBe(1));
      // Approval B (a second tab, a double tap) two seconds later, in January.
      vi.setSystemTime(new Date('2027-01-01T00:00:01Z'));
      const b = g.post(`/requests/${r.requestId}/approve`, g.guardian);
      await vi.waitFor(() => expect(gate.waiting).toBe(2));
      gate.hold = false;
      gate.open();
      const results = (await Promise.all([a, b])).map((res) => res.statusCode).sort();
      expect(results).toEqual([200, 409]);
      const ledgers = store.collection<SpendingLedger>('spending_ledgers');
      const key = (m: string) => `${g.household.householdId}:${g.adult.userId}:${m}:EUR`;
      expect((await ledgers.get(key('2026-12')))?.amounts).toEqual({ [r.requestId]: 80 });
      expect((await ledgers.get(key('2027-01')))?.amounts ?? {}).toEqual({});
      // January is untouched: a 30 EUR request is approved there.
      vi.setSystemTime(new Date('2027-01-01T00:07:00Z'));
      const next = (await g.post('/requests', g.adult, { ...g.item, price: 30 })).json();
      expect((await g.post(`/requests/${next.requestId}/approve`, g.guardian)).statusCode).toBe(200);
    } finally {
      await g.close();
      vi.useRealTimers();
    }
  });

  it('cancelling gives back an amount left in any month since the request was made', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-31T23:50:00Z'));
    const g = await buildBuyflowGateway();
    try {
      const r = (await g.post('/requests', g.adult, { ...g.item, price: 40 })).json();
      expect((await g.post(`/requests/${r.requestId}/approve`, g.guardian)).statusCode).toBe(200);
      // What a lost race left in January (an older version settled such entries).
      vi.setSystemTime(new Date('2027-01-01T00:10:00Z'));
      const ledgers = g.store.collection<SpendingLedger>('spending_ledgers');
      const january = `${g.household.householdId}:${g.adult.userId}:2027-01:EUR`;
      await ledgers.put(january, {
        householdId: g.household.householdId,
        memberId: g.adult.userId,
        month: '2027-01',
        currency: 'EUR',
        amounts: { [r.requestId]: 40 },
        pending: {},
      });
      expect((await g.post(`/requests/${r.requestId}/cancel`, g.adult, { reason: 'no' })).statusCode).toBe(
        200,
      );
      expect((await ledgers.get(january))?.amounts).toEqual({});
    } finally {
      await g.close();
      vi.useRealTimers();
    }
  });
});
