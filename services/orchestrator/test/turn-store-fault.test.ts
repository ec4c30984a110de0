// A store fault in the middle of a turn (another process holding sqlite's lock past the busy
// timeout, a full disk) is the store's, not the agent's: the chat answers 503 SERVICE_UNAVAILABLE
// (with Retry-After when the fault passes by itself), where it answered 502 "the turn failed",
// and the mission stays RUNNING so the same message can be sent again. Once the answer is stored,
// though, a fault telling the stream of it fails nothing: the caller gets the answer (a "send it
// again" would run the turn twice).
import { createStore, StoreUnavailableError } from '@hs/store';
import { wrapCollection } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, buildTestApp, createMission, H, OWNER } from './fixtures/build.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';

const M = `/api/v1/households/${H}/orchestrator/missions`;

let peers: FakePeers;
beforeAll(async () => {
  peers = await startFakePeers();
});
afterAll(async () => peers.close());

/**
 * A store whose mission stream refuses events of `type` with `code`, `state.failures` times (a lock
 * that passes, or one that holds while the count is Infinity).
 */
function storeFailingMidTurn(code: string, type = 'tool.call') {
  const state = { failures: 0 };
  const store = wrapCollection(createStore({ backend: 'inmemory' }), 'mission_events', (method, create) =>
    method === 'create'
      ? (...args) => {
          const event = args[1] as { type?: string };
          if (state.failures > 0 && event.type === type) {
            state.failures--;
            throw new StoreUnavailableError(code, 'The store did not take the change');
          }
          return create(...args);
        }
      : undefined,
  );
  return { store, state };
}

describe('a turn the store stops midway', () => {
  it.each([
    ['SQLITE_BUSY', '2'],
    ['SQLITE_FULL', undefined],
  ])(
    '%s: answers 503 (Retry-After %s), the mission stays RUNNING, and the message sent again runs',
    async (code, retryAfter) => {
      const { store, state } = storeFailingMidTurn(code);
      const app = await buildTestApp(peers.url, { store });
      try {
        const missionId = (await createMission(app, 'STYLE', 'summer tops under 80')).mission_id;
        const chat = `${M}/${missionId}/chat`;

        state.failures = Number.POSITIVE_INFINITY;
        const failed = await app.inject({
          method: 'POST',
          url: chat,
          headers: as(OWNER),
          payload: { message: 'linen shirts in navy' },
        });
        expect(failed.statusCode).toBe(503);
        expect(failed.json()).toEqual({
          error: 'SERVICE_UNAVAILABLE',
          message: `The turn stopped because the mission store was unavailable; the mission is still running (${code}); try again later`,
        });
        expect(failed.headers['retry-after']).toBe(retryAfter);
        // The stream says the same: the store, not the agent.
        const events = await app.ctx.events.after(missionId, 0, 1000);
        expect(events.filter((e) => e.type === 'turn.failed').map((e) => e.data.code)).toEqual([
          'STORE_UNAVAILABLE',
        ]);

        state.failures = 0;
        const mission = await app.inject({
          method: 'GET',
          url: chat.replace(/\/chat$/, ''),
          headers: as(OWNER),
        });
        expect(mission.json().state).toBe('RUNNING');
        const again = await app.inject({
          method: 'POST',
          url: chat,
          headers: as(OWNER),
          payload: { message: 'linen shirts in navy' },
        });
        expect(again.statusCode).toBe(200);
        // The same words, sent again without a key: the failed message's retry, not a second one.
        const said = (res: typeof again) =>
          (res.json().history as Array<{ role: string; content: string }>).map((m) =>
            m.role === 'user' ? m.content : m.role,
          );
        expect(said(again)).toEqual(['summer tops under 80', 'model', 'linen shirts in navy', 'model']);
        // Once answered, the same words again are a new message.
        const repeat = await app.inject({
          method: 'POST',
          url: chat,
          headers: as(OWNER),
          payload: { message: 'linen shirts in navy' },
        });
        expect(said(repeat)).toEqual([
          'summer tops under 80',
          'model',
          'linen shirts in navy',
          'model',
          'linen shirts in navy',
          'model',
        ]);
      } finally {
        await app.close();
      }
    },
  );
});

describe('a store fault after the answer is stored', () => {
  it.each(['message', 'turn.completed'])(
    'writing %s once: the chat answers 200 with the answer, run once, and the stream still ends the turn',
    async (type) => {
      const { store, state } = storeFailingMidTurn('SQLITE_BUSY', type);
      const app = await buildTestApp(peers.url, { store });
      try {
        const missionId = (await createMission(app, 'STYLE', 'summer tops under 80')).mission_id;
        state.failures = 1;
        const res = await app.inject({
          method: 'POST',
          url: `${M}/${missionId}/chat`,
          headers: as(OWNER),
          payload: { message: 'linen shirts in navy' },
        });
        expect(state.failures).toBe(0);
        expect(res.statusCode).toBe(200);
        const history = res.json().history as Array<{ role: string; content: string }>;
        expect(history.map((m) => m.role)).toEqual(['user', 'model', 'user', 'model']);
        const events = await app.ctx.events.after(missionId, 0, 1000);
        expect(events.at(-1)?.type).toBe('turn.completed');
        expect(events.filter((e) => e.type === 'turn.failed')).toEqual([]);
      } finally {
        await app.close();
      }
    },
  );
});
