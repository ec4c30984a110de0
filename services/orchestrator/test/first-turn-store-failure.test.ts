import { createStore, StoreUnavailableError } from '@hs/store';
import { wrapCollection } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, buildTestApp, H, OWNER } from './fixtures/build.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';

const M = `/api/v1/households/${H}/orchestrator/missions`;

let peers: FakePeers;
beforeAll(async () => {
  peers = await startFakePeers();
});
afterAll(async () => peers.close());

/** A store whose mission stream refuses `turn.started` events while `full` is set (a full disk). */
function storeFillingUp() {
  const state = { full: true };
  const store = wrapCollection(createStore({ backend: 'inmemory' }), 'mission_events', (method, create) =>
    method === 'create'
      ? (...args) => {
          const event = args[1] as { type?: string };
          if (state.full && event.type === 'turn.started')
            throw new StoreUnavailableError('SQLITE_FULL', 'Storage is full: the change was not saved');
          return create(...args);
        }
      : undefined,
  );
  return { store, state };
}

describe('a first turn the store cannot start', () => {
  it('still answers 201 with the stored mission RUNNING, and the next chat runs at once', async () => {
    const { store, state } = storeFillingUp();
    const app = await buildTestApp(peers.url, { store });
    try {
      const created = await app.inject({
        method: 'POST',
        url: M,
        headers: as(OWNER),
        payload: { mission_type: 'STYLE', initial_message: 'summer tops under 80' },
      });
      expect(created.statusCode).toBe(201);
      const mission = created.json();
      expect(mission).toMatchObject({ state: 'RUNNING', owner_id: OWNER });
      expect(mission.history.map((m: { role: string }) => m.role)).toEqual(['user']);

      // One mission, not one per retry: the creator retries in it.
      const listed = await app.inject({ method: 'GET', url: `${M}?mine=true`, headers: as(OWNER) });
      expect(listed.json().items ?? listed.json()).toHaveLength(1);

      state.full = false;
      const retried = await app.inject({
        method: 'POST',
        url: `${M}/${mission.mission_id}/chat`,
        headers: as(OWNER),
        payload: { message: 'summer tops under 80' },
      });
      expect(retried.statusCode).toBe(200);
      expect(retried.json().history.at(-1).role).toBe('model');
    } finally {
      await app.close();
    }
  });
});
