// Order of checks (decisions, Conventions): membership and role (403), then the resource's
// existence (404), and only then the body: its JSON syntax (400) and schema (422).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildBuyflowGateway } from './buyflow-harness.ts';

let t: Awaited<ReturnType<typeof buildBuyflowGateway>>;
beforeEach(async () => {
  t = await buildBuyflowGateway();
});
afterEach(async () => t.close());

const MALFORMED = '{"not json';
const send = (
  method: 'POST' | 'PATCH' | 'PUT',
  url: string,
  headers: Record<string, string>,
  payload: string,
) =>
  t.app.inject({
    method,
    url: `${t.h}${url}`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload,
  });
const requestNotFound = { error: 'NOT_FOUND', message: 'Purchase request not found' };
const memberNotFound = { error: 'NOT_FOUND', message: 'Member not found' };

describe('an action on a purchase request that does not exist', () => {
  it.each(['approve', 'reject', 'cancel', 'purchase-intents', 'confirm-checkout'])(
    '%s is 404 whatever the body, malformed JSON included',
    async (action) => {
      for (const payload of [MALFORMED, '{"reason": 42, "confirmationToken": 7}']) {
        const res = await send('POST', `/requests/pr_missing/${action}`, t.guardian.auth, payload);
        expect({ action, status: res.statusCode, body: res.json() }).toEqual({
          action,
          status: 404,
          body: requestNotFound,
        });
      }
    },
  );

  it('still answers 403 first to a role that may not act (CHILD confirming)', async () => {
    const res = await send('POST', '/requests/pr_missing/confirm-checkout', t.child.auth, MALFORMED);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'A CHILD member cannot confirm a checkout' });
  });

  it.each(['cart-ready', 'failed'])(
    'the %s callback is 404 after its token, before its body',
    async (action) => {
      const withToken = await send('POST', `/requests/pr_missing/${action}`, t.internal().auth, '{}');
      expect(withToken.statusCode).toBe(404);
      expect(withToken.json()).toEqual(requestNotFound);
      const badToken = await send(
        'POST',
        `/requests/pr_missing/${action}`,
        t.internal('wrong').auth,
        MALFORMED,
      );
      expect(badToken.statusCode).toBe(403);
    },
  );

  it('keeps 400 for malformed JSON on a request that exists', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const res = await send('POST', `/requests/${pr.requestId}/approve`, t.guardian.auth, MALFORMED);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('BAD_REQUEST');
  });
});

describe('a change to a member who is not in the household', () => {
  it('PATCH /members/{memberId} is 404 before the body is validated', async () => {
    for (const payload of ['{}', MALFORMED]) {
      const res = await send('PATCH', '/members/usr_nobody', t.guardian.auth, payload);
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 404, body: memberNotFound });
    }
  });

  it('PUT /members/{memberId}/spending-policy is 404 before the body is validated', async () => {
    for (const payload of ['{}', MALFORMED]) {
      const res = await send('PUT', '/members/usr_nobody/spending-policy', t.guardian.auth, payload);
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 404, body: memberNotFound });
    }
  });

  it('still answers 403 first to a member who may not manage members', async () => {
    const res = await send('PATCH', '/members/usr_nobody', t.adult.auth, '{}');
    expect(res.statusCode).toBe(403);
  });

  it('keeps 422 for an invalid body about a member who exists', async () => {
    const res = await send('PATCH', `/members/${t.child.userId}`, t.guardian.auth, '{}');
    expect(res.statusCode).toBe(422);
  });
});
