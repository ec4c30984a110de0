// A keyed confirm-checkout whose first attempt spent the token and completed the request, then
// died (kill -9) before its idempotency record stored the reply: once the record's lease has run
// out, the retry with the same key and body runs again and finds its token used. It must get the
// first attempt's answer (200, the COMPLETED request, `Idempotent-Replayed: true`), and no second
// ALLOWED entry; every other presentation of the used token is answered as before. One whose
// first attempt spent the token but never completed the request completes it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredCheckoutToken } from '../src/domain/confirmation-token.ts';
import type { IdempotencyRecord } from '../src/domain/idempotency.ts';
import { buildBuyflowGateway } from './buyflow-harness.ts';

type Harness = Awaited<ReturnType<typeof buildBuyflowGateway>>;
let t: Harness;
beforeEach(async () => {
  t = await buildBuyflowGateway();
});
afterEach(async () => t.close());

const KEY = 'confirm-crash-key-1';
const USED = { error: 'CONFLICT', message: 'Confirmation token has already been used' };

/** A request brought to CART_READY by the adult, and its confirmation call. */
async function cartReady() {
  const { requestId, r, intent } = await t.toCartReady();
  const body = { confirmationToken: intent.confirmationToken as string };
  const confirm = (who = t.adult, headers: Record<string, string> = { 'idempotency-key': KEY }) =>
    t.post(`${r}/confirm-checkout`, who, body, headers);
  return { requestId, confirm };
}

const idempotencyRecords = () => t.store.collection<IdempotencyRecord>('idempotency_keys');
const tokenRecords = () => t.store.collection<StoredCheckoutToken>('checkout_tokens');

/** The adult's confirm-checkout record for this request (the only keyed confirmation by them). */
async function confirmRecord(requestId: string): Promise<IdempotencyRecord> {
  const page = await idempotencyRecords().query({ limit: 500 });
  const found = page.items.filter(
    (r) =>
      r.scope.startsWith(`${t.adult.userId} POST `) &&
      r.scope.includes('/confirm-checkout') &&
      r.scope.includes(requestId),
  );
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** What kill -9 between the spend and the stored reply leaves, once the 60 s lease has passed. */
async function crashBeforeReplyStored(requestId: string) {
  const record = await confirmRecord(requestId);
  await idempotencyRecords().put(record.id!, {
    ...record,
    state: 'RUNNING',
    status: null,
    sealedBody: null,
    attemptId: 'a-dead-process',
    leaseUntil: Date.now() - 1000,
  });
}

async function tokenOf(requestId: string): Promise<StoredCheckoutToken> {
  const page = await tokenRecords().query({ limit: 500 });
  const found = page.items.filter((d) => d.requestId === requestId);
  expect(found).toHaveLength(1);
  return found[0]!;
}

const allowedConfirms = async (requestId: string) =>
  (await t.gates()).filter(
    (g) => g.action === 'CONFIRM_CHECKOUT' && g.targetId === requestId && g.detail.outcome === 'ALLOWED',
  );

/** The first attempt: confirmed through the route under KEY, then the crash before its reply was kept. */
async function confirmedThenCrashed() {
  const flow = await cartReady();
  const first = await flow.confirm();
  expect(first.statusCode).toBe(200);
  expect(first.json().status).toBe('COMPLETED');
  await crashBeforeReplyStored(flow.requestId);
  return { ...flow, first: first.json() };
}

/** The rightful retry: same member, key and body. */
async function expectReplayed(flow: Awaited<ReturnType<typeof confirmedThenCrashed>>) {
  const retried = await flow.confirm();
  expect(retried.statusCode).toBe(200);
  expect(retried.headers['idempotent-replayed']).toBe('true');
  expect(retried.json()).toEqual(flow.first);
  expect(await allowedConfirms(flow.requestId)).toHaveLength(1);
}

describe('a keyed confirm-checkout retried after its first attempt died unanswered', () => {
  it('gets the COMPLETED request back (200, replayed), with one ALLOWED entry, and the reply is then kept', async () => {
    const flow = await confirmedThenCrashed();
    // Before the lease runs out the retry is told to wait, as before.
    const record = await confirmRecord(flow.requestId);
    await idempotencyRecords().put(record.id!, { ...record, leaseUntil: Date.now() + 60_000 });
    const early = await flow.confirm();
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('A request with this Idempotency-Key is still being processed');
    await crashBeforeReplyStored(flow.requestId);

    await expectReplayed(flow);
    const stored = await tokenOf(flow.requestId);
    expect(stored.usedAt).not.toBeNull();
    // The token record holds a hash of the key's scope and key, never the key.
    expect(stored.usedUnder).toBe(record.id);
    expect(JSON.stringify(stored)).not.toContain(KEY);
    // The retry's reply is now kept: a further retry replays it from the idempotency record.
    expect((await confirmRecord(flow.requestId)).state).toBe('DONE');
    const again = await flow.confirm();
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(flow.first);
    const read = await t.app.inject({
      method: 'GET',
      url: `${t.h}/requests/${flow.requestId}`,
      headers: t.adult.auth,
    });
    expect(read.json()).toMatchObject(flow.first);
    expect(await allowedConfirms(flow.requestId)).toHaveLength(1);
  });

  it('another key with the used token is 409 used, as before; the rightful retry still gets its reply', async () => {
    const flow = await confirmedThenCrashed();
    const other = await flow.confirm(t.adult, { 'idempotency-key': 'another-key' });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual(USED);
    await expectReplayed(flow);
  });

  it('another member with the same key and body is refused as before (403); the rightful retry still gets its reply', async () => {
    const flow = await confirmedThenCrashed();
    const guardian = await flow.confirm(t.guardian);
    expect(guardian.statusCode).toBe(403);
    expect(guardian.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Confirmation token was issued to another member',
    });
    const child = await flow.confirm(t.child);
    expect(child.statusCode).toBe(403);
    await expectReplayed(flow);
  });

  it('the used token without a key is 409 used, as before; the rightful retry still gets its reply', async () => {
    const flow = await confirmedThenCrashed();
    const unkeyed = await flow.confirm(t.adult, {});
    expect(unkeyed.statusCode).toBe(409);
    expect(unkeyed.json()).toEqual(USED);
    await expectReplayed(flow);
  });

  describe('whose first attempt spent the token and failed before completing the request', () => {
    /** The first attempt under KEY: the spend lands, the completing write fails (the store went away). */
    async function spentThenFailed() {
      const flow = await cartReady();
      const requests = t.app.ctx.buyflow.requests;
      const change = requests.change;
      requests.change = async () => {
        throw new Error('store went away');
      };
      const first = await flow.confirm().finally(() => {
        requests.change = change;
      });
      expect(first.statusCode).toBeGreaterThanOrEqual(500);
      expect((await tokenOf(flow.requestId)).usedAt).not.toBeNull();
      expect(await allowedConfirms(flow.requestId)).toHaveLength(0);
      return flow;
    }

    it('completes it on the keyed retry (200, one ALLOWED entry) without spending again', async () => {
      const flow = await spentThenFailed();
      const spent = await tokenOf(flow.requestId);
      // Any other presentation of the spent token is still refused, before and after.
      expect((await flow.confirm(t.adult, {})).json()).toEqual(USED);
      expect((await flow.confirm(t.adult, { 'idempotency-key': 'another-key' })).json()).toEqual(USED);

      const retried = await flow.confirm();
      expect(retried.statusCode).toBe(200);
      expect(retried.json()).toMatchObject({ requestId: flow.requestId, status: 'COMPLETED' });
      expect(await allowedConfirms(flow.requestId)).toHaveLength(1);
      expect(await tokenOf(flow.requestId)).toEqual(spent);
      // Its reply is now kept: the next retry replays it.
      const again = await flow.confirm();
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await allowedConfirms(flow.requestId)).toHaveLength(1);
    });

    it('is refused like any confirmation once the request left CART_READY (cancelled meanwhile)', async () => {
      const flow = await spentThenFailed();
      expect((await t.post(`/requests/${flow.requestId}/cancel`, t.guardian)).statusCode).toBe(200);
      const retried = await flow.confirm();
      expect(retried.statusCode).toBe(409);
      expect(retried.json()).toEqual({
        error: 'CONFLICT',
        message: 'Purchase request is already finalized (CANCELLED)',
      });
      expect(await allowedConfirms(flow.requestId)).toHaveLength(0);
    });
  });

  it('keeps the documented order (expired 403 before used) and answers 409 for a record spent without the field', async () => {
    const flow = await confirmedThenCrashed();
    const spent = await tokenOf(flow.requestId);
    expect(spent.usedUnder).toBeTypeOf('string');
    // Expired since: 403 "has expired", whatever key spent it.
    await tokenRecords().put(spent.tokenHash, {
      ...spent,
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const expired = await flow.confirm();
    expect(expired.statusCode).toBe(403);
    expect(expired.json().message).toBe('Confirmation token has expired');
    // A record an earlier version spent (no usedUnder): 409 used, as before.
    const { usedUnder: _dropped, ...legacy } = spent;
    await tokenRecords().put(spent.tokenHash, legacy);
    const old = await flow.confirm();
    expect(old.statusCode).toBe(409);
    expect(old.json()).toEqual(USED);
    expect(await allowedConfirms(flow.requestId)).toHaveLength(1);
  });
});
