// Order of checks (decisions, Conventions): authentication and the internal token (401/403),
// membership and role (403), the resource's existence (404), and only then what the request
// carries: its params, query, headers and body (400, 422). Routes whose access check used to run
// in the handler, after validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBuyflowGateway } from './buyflow-harness.ts';

let t: Awaited<ReturnType<typeof buildBuyflowGateway>>;
beforeAll(async () => {
  t = await buildBuyflowGateway();
});
afterAll(() => t.close());

const GATEWAY_TOKEN = 'dev-internal-token-gateway';
const MALFORMED = '{bad';
const LONG_ID = 'x'.repeat(129); // over the params' 128 characters: 422 once validated
const TOKEN_REFUSED = { error: 'FORBIDDEN', message: 'Missing or invalid internal token' };

const inject = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: string) =>
  t.app.inject({
    method,
    url,
    headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload }),
  });

describe('the stylist agent routes (internal token)', () => {
  const list = () => `/api/v1/internal/households/${t.household.householdId}/requests`;

  it.each([
    ['no token', {}],
    ['a wrong token', { 'x-internal-token': 'wrong' }],
  ])('raising a request with %s is 403 whatever the body', async (_, token) => {
    for (const payload of ['{}', MALFORMED, '{"title": 7}']) {
      const res = await inject('POST', list(), { ...token, 'x-user-id': t.adult.userId }, payload);
      expect({ payload, status: res.statusCode, body: res.json() }).toEqual({
        payload,
        status: 403,
        body: TOKEN_REFUSED,
      });
    }
  });

  it('raising a request without an acting user is 401, for an outsider 403, before the body', async () => {
    const noUser = await inject('POST', list(), { 'x-internal-token': GATEWAY_TOKEN }, '{}');
    expect(noUser.statusCode).toBe(401);
    const outsider = await inject(
      'POST',
      list(),
      { 'x-internal-token': GATEWAY_TOKEN, 'x-user-id': t.outsider.userId },
      MALFORMED,
    );
    expect(outsider.statusCode).toBe(403);
    const missing = await inject(
      'POST',
      '/api/v1/internal/households/hh_missing/requests',
      { 'x-internal-token': GATEWAY_TOKEN, 'x-user-id': t.adult.userId },
      '{}',
    );
    expect(missing.statusCode).toBe(404);
  });

  it('raising a request for a CHILD is 403 (audited) whatever the body', async () => {
    const before = (await t.gates()).length;
    const res = await inject(
      'POST',
      list(),
      { 'x-internal-token': GATEWAY_TOKEN, 'x-user-id': t.child.userId },
      '{}',
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'A CHILD member cannot create purchase requests',
    });
    const gates = await t.gates();
    expect(gates.length).toBe(before + 1);
    expect(gates.at(-1)).toMatchObject({
      action: 'CREATE_PURCHASE_REQUEST',
      actorId: t.child.userId,
      detail: { outcome: 'REFUSED', status: 403 },
    });
  });

  it('still validates the body of a member allowed to raise one (400, 422)', async () => {
    const headers = { 'x-internal-token': GATEWAY_TOKEN, 'x-user-id': t.adult.userId };
    expect((await inject('POST', list(), headers, MALFORMED)).statusCode).toBe(400);
    expect((await inject('POST', list(), headers, '{}')).statusCode).toBe(422);
  });

  it('reading a request or starting its cart is 403 without the token, whatever the params', async () => {
    for (const url of [`${list()}/${LONG_ID}`, `${list()}/${LONG_ID}/purchase-intents`]) {
      const method = url.endsWith('purchase-intents') ? 'POST' : 'GET';
      const res = await inject(method, url, { 'x-user-id': t.adult.userId });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 403 });
    }
  });

  it('starting a cart for a CHILD is 403 whatever the params', async () => {
    const res = await inject('POST', `${list()}/${LONG_ID}/purchase-intents`, {
      'x-internal-token': GATEWAY_TOKEN,
      'x-user-id': t.child.userId,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('A CHILD member cannot start a purchase');
  });

  it("the members route is 403 without the token, whatever the household's id", async () => {
    const res = await inject('GET', `/api/v1/internal/households/${LONG_ID}/members`, {});
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 403, body: TOKEN_REFUSED });
  });
});

describe('the audit log (PARENT_GUARDIAN only)', () => {
  const url = (query: string) => `${t.h}/audit-logs?${query}`;

  it.each(['limit=abc', 'category=NOPE', 'limit=0'])(
    'is 403 for a CHILD or ADULT whatever the query (%s)',
    async (query) => {
      for (const who of [t.child, t.adult]) {
        const res = await inject('GET', url(query), who.auth);
        expect({ status: res.statusCode, body: res.json() }).toEqual({
          status: 403,
          body: { error: 'FORBIDDEN', message: 'Only a PARENT_GUARDIAN may read the audit log' },
        });
      }
    },
  );

  it('is 403 for an outsider and 422 for a PARENT_GUARDIAN with a bad query', async () => {
    expect((await inject('GET', url('limit=abc'), t.outsider.auth)).statusCode).toBe(403);
    const guardian = await inject('GET', url('limit=abc'), t.guardian.auth);
    expect(guardian.statusCode).toBe(422);
  });
});

describe('a mission stream', () => {
  const url = (query: string) => `${t.h}/orchestrator/missions/m_1/stream?${query}`;

  it('is 403 for an outsider whatever the query or headers', async () => {
    for (const [query, headers] of [
      ['after=zz', {}],
      ['after=1', { 'last-event-id': 'not-a-number' }],
    ] as const) {
      const res = await inject('GET', url(query), { ...t.outsider.auth, ...headers });
      expect({ query, status: res.statusCode, body: res.json() }).toEqual({
        query,
        status: 403,
        body: { error: 'FORBIDDEN', message: 'User is not a household member' },
      });
    }
  });

  it('is 401 without credentials and 422 for a member with a bad query', async () => {
    expect((await inject('GET', url('after=zz'), {})).statusCode).toBe(401);
    expect((await inject('GET', url('after=zz'), t.adult.auth)).statusCode).toBe(422);
  });
});

describe("a member's spending policy (a PARENT_GUARDIAN or the member)", () => {
  it('is 403 for another ADULT or CHILD whatever the member id', async () => {
    for (const memberId of [t.guardian.userId, LONG_ID]) {
      const res = await inject('GET', `${t.h}/members/${memberId}/spending-policy`, t.child.auth);
      expect({ memberId, status: res.statusCode }).toEqual({ memberId, status: 403 });
    }
    const adult = await inject('GET', `${t.h}/members/${LONG_ID}/spending-policy`, t.adult.auth);
    expect(adult.statusCode).toBe(403);
  });

  it('is 404 for a PARENT_GUARDIAN asking about nobody, and readable by the member', async () => {
    const nobody = await inject('GET', `${t.h}/members/${LONG_ID}/spending-policy`, t.guardian.auth);
    expect(nobody.statusCode).toBe(404);
    const own = await inject('GET', `${t.h}/members/${t.child.userId}/spending-policy`, t.child.auth);
    expect(own.statusCode).toBe(200);
  });
});

describe('cancelling a purchase request (the requester or a PARENT_GUARDIAN)', () => {
  it('is 403 (audited) for another ADULT whatever the body', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const other = await t.login('adult2');
    await t.post('/members', t.guardian, { memberId: other.userId, role: 'ADULT' });
    for (const payload of [MALFORMED, '{"reason": 42}']) {
      const res = await inject('POST', `${t.h}/requests/${pr.requestId}/cancel`, other.auth, payload);
      expect({ payload, status: res.statusCode, body: res.json() }).toEqual({
        payload,
        status: 403,
        body: {
          error: 'FORBIDDEN',
          message: 'Only the requester or a PARENT_GUARDIAN can cancel a purchase request',
        },
      });
    }
    const refusals = (await t.gates()).filter(
      (g) => g.action === 'CANCEL_PURCHASE_REQUEST' && g.actorId === other.userId,
    );
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    // The requester's own bad body is still 422, and a good one cancels.
    const bad = await inject(
      'POST',
      `${t.h}/requests/${pr.requestId}/cancel`,
      t.adult.auth,
      '{"reason": 42}',
    );
    expect(bad.statusCode).toBe(422);
    const ok = await inject('POST', `${t.h}/requests/${pr.requestId}/cancel`, t.adult.auth, '{}');
    expect(ok.statusCode).toBe(200);
  });
});
