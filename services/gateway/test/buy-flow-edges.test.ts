import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildBuyflowGateway } from './buyflow-harness.ts';

type Harness = Awaited<ReturnType<typeof buildBuyflowGateway>>;
let t: Harness;
beforeEach(async () => {
  t = await buildBuyflowGateway();
});
afterEach(async () => t.close());

/** The ways a client says "no body": nothing, an empty JSON body, and `{}`. */
const EMPTY_BODIES: Array<[string, Record<string, string>, string | undefined]> = [
  ['no body', {}, undefined],
  ['an empty body sent as application/json', { 'content-type': 'application/json' }, ''],
  ['{}', { 'content-type': 'application/json' }, '{}'],
];

const send = (
  url: string,
  who: { auth: Record<string, string> },
  headers: Record<string, string>,
  payload?: string,
) =>
  t.app.inject({
    method: 'POST',
    url: `${t.h}${url}`,
    headers: { ...who.auth, ...headers },
    ...(payload !== undefined ? { payload } : {}),
  });

describe('POST routes that need no body', () => {
  describe.each(EMPTY_BODIES)('with %s', (_name, headers, payload) => {
    it.each([
      ['approve', 'APPROVED'],
      ['reject', 'REJECTED'],
      ['cancel', 'CANCELLED'],
    ])('%s answers 200 and moves the request to %s', async (action, status) => {
      const pr = (await t.post('/requests', t.adult, t.item)).json();
      const res = await send(`/requests/${pr.requestId}/${action}`, t.guardian, headers, payload);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ requestId: pr.requestId, status });
    });
  });

  it.each(['approve', 'reject', 'cancel'])(
    '%s refuses a body that is not an object the same way',
    async (action) => {
      const pr = (await t.post('/requests', t.adult, t.item)).json();
      const res = await send(
        `/requests/${pr.requestId}/${action}`,
        t.guardian,
        { 'content-type': 'application/json' },
        '[]',
      );
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        error: 'VALIDATION_ERROR',
        message: 'Request validation failed',
        details: [
          { loc: ['body'], msg: 'Invalid input: expected object, received array', type: 'invalid_type' },
        ],
      });
      const after = await t.app.inject({
        method: 'GET',
        url: `${t.h}/requests/${pr.requestId}`,
        headers: t.guardian.auth,
      });
      expect(after.json().status).toBe('PENDING_APPROVAL');
    },
  );
});

describe('confirm-checkout without a token', () => {
  it.each([
    ['no body', {}, undefined],
    ['an empty JSON body', { 'content-type': 'application/json' }, ''],
    ['{}', { 'content-type': 'application/json' }, '{}'],
    ['an empty token', { 'content-type': 'application/json' }, '{"confirmationToken":""}'],
    ['a token that is not a string', { 'content-type': 'application/json' }, '{"confirmationToken":5}'],
    ['null', { 'content-type': 'application/json' }, 'null'],
    ['an array', { 'content-type': 'application/json' }, '[]'],
    ['a string', { 'content-type': 'application/json' }, '"tok"'],
  ] as Array<[string, Record<string, string>, string | undefined]>)(
    'is 409 CONFLICT with %s, and the request stays CART_READY',
    async (_name, headers, payload) => {
      const { r } = await t.toCartReady();
      const res = await send(`${r}/confirm-checkout`, t.adult, headers, payload);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: 'CONFLICT', message: 'Confirmation token is missing' });
      const after = await t.app.inject({ method: 'GET', url: `${t.h}${r}`, headers: t.adult.auth });
      expect(after.json().status).toBe('CART_READY');
    },
  );

  it('still refuses a CHILD first (403), whatever the body', async () => {
    const { r } = await t.toCartReady();
    const res = await send(`${r}/confirm-checkout`, t.child, { 'content-type': 'application/json' }, '[]');
    expect(res.statusCode).toBe(403);
  });

  it('validates a present token after the missing-token check: too long is 422', async () => {
    const { r } = await t.toCartReady();
    const res = await t.post(`${r}/confirm-checkout`, t.adult, { confirmationToken: 'x'.repeat(513) });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: [{ loc: ['body', 'confirmationToken'] }],
    });
  });

  it('confirms with the token, and the empty-body answers did not spend it', async () => {
    const { r, intent } = await t.toCartReady();
    await send(`${r}/confirm-checkout`, t.adult, {}, undefined);
    const ok = await t.post(`${r}/confirm-checkout`, t.adult, {
      confirmationToken: intent.confirmationToken,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().status).toBe('COMPLETED');
  });
});

describe('confirm-checkout order of checks', () => {
  it('answers 404 for a request that does not exist before looking at the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${t.h}/requests/pr_missing/confirm-checkout`,
      headers: { ...t.adult.auth, 'content-type': 'application/json' },
      payload: '{"confirmationToken":5}',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Purchase request not found' });
  });
});

describe('the OpenAPI document', () => {
  it('shows the body of a body-less POST as optional, and a real one as required', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const body = (path: string) =>
      doc.paths[`/api/v1/households/{id}/requests${path}`].post.requestBody.required;
    for (const action of ['approve', 'reject', 'cancel', 'purchase-intents', 'confirm-checkout'])
      expect([action, body(`/{requestId}/${action}`)]).toEqual([action, false]);
    expect(body('')).toBe(true);
  });
});
