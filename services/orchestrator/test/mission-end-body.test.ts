import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { as, buildTestApp, H, OWNER } from './fixtures/build.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';

let peers: FakePeers;
let app: Awaited<ReturnType<typeof buildTestApp>>;
const M = `/api/v1/households/${H}/orchestrator/missions`;

beforeAll(async () => {
  peers = await startFakePeers();
});
afterAll(async () => peers.close());
beforeEach(async () => {
  app = await buildTestApp(peers.url);
});

async function mission() {
  const res = await app.inject({
    method: 'POST',
    url: M,
    headers: as(OWNER),
    payload: { mission_type: 'STYLE', initial_message: 'A scarf for winter' },
  });
  expect(res.statusCode).toBe(201);
  return res.json().mission_id as string;
}

const end = (mId: string, action: string, headers: Record<string, string>, payload?: string) =>
  app.inject({
    method: 'POST',
    url: `${M}/${mId}/${action}`,
    headers: as(OWNER, headers),
    ...(payload !== undefined ? { payload } : {}),
  });

describe('complete and cancel need no body, like every body-less POST', () => {
  describe.each([
    ['no body', {}, undefined],
    ['an empty body sent as application/json', { 'content-type': 'application/json' }, ''],
    ['{}', { 'content-type': 'application/json' }, '{}'],
  ] as Array<[string, Record<string, string>, string | undefined]>)('with %s', (_name, headers, payload) => {
    it.each([
      ['complete', 'DONE'],
      ['cancel', 'FAILED'],
    ])('%s ends the mission %s', async (action, state) => {
      const res = await end(await mission(), action, headers, payload);
      expect(res.statusCode).toBe(200);
      expect(res.json().state).toBe(state);
    });
  });

  it.each(['complete', 'cancel'])(
    '%s refuses a body that is not an object (422) and the mission runs on',
    async (action) => {
      const mId = await mission();
      const res = await end(mId, action, { 'content-type': 'application/json' }, '[]');
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        error: 'VALIDATION_ERROR',
        message: 'Request validation failed',
        details: [
          { loc: ['body'], msg: 'Invalid input: expected object, received array', type: 'invalid_type' },
        ],
      });
      const after = await app.inject({ method: 'GET', url: `${M}/${mId}`, headers: as(OWNER) });
      expect(after.json().state).toBe('RUNNING');
    },
  );
});
