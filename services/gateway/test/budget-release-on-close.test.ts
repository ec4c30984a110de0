import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSpendingPolicyRepository } from '../src/adapters/spending-policy-repository.ts';
import { monthOf } from '../src/domain/spending-policy.ts';
import { buildBuyflowGateway } from './buyflow-harness.ts';

type Harness = Awaited<ReturnType<typeof buildBuyflowGateway>>;
let t: Harness;
beforeEach(async () => {
  t = await buildBuyflowGateway();
});
afterEach(async () => t.close());

const budgetOf = async (requestId: string) =>
  (
    await t.app.inject({ method: 'GET', url: `${t.h}/requests/${requestId}`, headers: t.guardian.auth })
  ).json().budget;

describe('closing a request gives back a reservation its approval left behind', () => {
  it.each(['reject', 'cancel'] as const)(
    '%s releases an amount an approval reserved but never recorded (its reservation timed out and landed)',
    async (event) => {
      const policy = { perRequestLimit: null, monthlyLimit: 500, currency: 'EUR' };
      await t.app.inject({
        method: 'PUT',
        url: `${t.h}/members/${t.adult.userId}/spending-policy`,
        headers: t.guardian.auth,
        payload: policy,
      });
      const created = (await t.post('/requests', t.adult, t.item)).json();
      // What an approval whose ledger write timed out leaves: the amount reserved, the request
      // still PENDING_APPROVAL with no budgetKey.
      const policies = createSpendingPolicyRepository(t.store);
      const policyDoc = await policies.getPolicy(created.householdId, t.adult.userId);
      const now = new Date().toISOString();
      await policies.reserve({ ...created }, monthOf(now), policyDoc, now);
      const ledger = () => policies.getLedger(created.householdId, t.adult.userId, monthOf(now), 'EUR');
      expect((await ledger())?.amounts).toEqual({ [created.requestId]: 80 });
      // Not approved, so not shown as spent.
      expect((await budgetOf(created.requestId)).spentThisMonth).toBe(0);

      const who = event === 'reject' ? t.guardian : t.adult;
      const closed = await t.post(`/requests/${created.requestId}/${event}`, who, { reason: 'no' });
      expect(closed.statusCode).toBe(200);
      expect((await ledger())?.amounts).toEqual({});
    },
  );
});
