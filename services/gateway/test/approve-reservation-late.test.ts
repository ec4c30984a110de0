// An approval whose budget reservation timed out (Firestore answered nothing before the
// deadline) answers 503, yet the reservation's commit may still land: it must not go on counting
// against the member's month for a request nobody approved.
import { createStore, StoreUnavailableError } from '@hs/store';
import { wrapCollection } from '@hs/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { buildBuyflowGateway } from './buyflow-harness.ts';

let t: Awaited<ReturnType<typeof buildBuyflowGateway>> | undefined;
afterEach(async () => t?.close());

describe('a budget reservation that lands after its approval answered 503', () => {
  it('is given back once it has had time to land, and a new approval reserves it once', async () => {
    const landsLate = { next: false };
    const store = wrapCollection(
      createStore({ backend: 'inmemory' }),
      'spending_ledgers',
      (method, original) =>
        method === 'update'
          ? async (...args: unknown[]) => {
              const written = await original(...args);
              if (!landsLate.next) return written;
              landsLate.next = false;
              throw new StoreUnavailableError('FIRESTORE_TIMEOUT', 'Storage did not answer within 8000 ms', {
                outcomeUnknown: true,
              });
            }
          : undefined,
    );
    t = await buildBuyflowGateway({ store });
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const month = new Date().toISOString().slice(0, 7);
    const reserved = async () =>
      (await t!.app.ctx.buyflow.policies.getLedger(t!.household.householdId, t!.adult.userId, month, 'EUR'))
        ?.amounts ?? {};

    landsLate.next = true;
    const failed = await t.post(`/requests/${pr.requestId}/approve`, t.guardian);
    expect(failed.statusCode).toBe(503);
    // It landed behind the 503's back...
    expect(await reserved()).toEqual({ [pr.requestId]: 80 });
    // ...and is given back.
    await expect.poll(reserved, { timeout: 10_000, interval: 200 }).toEqual({});

    const approved = await t.post(`/requests/${pr.requestId}/approve`, t.guardian);
    expect(approved.json().status).toBe('APPROVED');
    expect(await reserved()).toEqual({ [pr.requestId]: 80 });
  }, 20_000);
});
