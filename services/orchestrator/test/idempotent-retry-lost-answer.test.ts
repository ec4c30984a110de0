import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, buildTestApp, H } from './fixtures/build.ts';
import { startCuttingProxy } from './fixtures/cutting-proxy.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';

// The gateway's side of a lost answer: it forwarded a create or a chat turn with the client's
// Idempotency-Key, the orchestrator did the work, and the connection broke before the answer
// came back. The gateway keeps nothing for a failed attempt, so the client's retry with the same
// key reaches the orchestrator again.
let peers: FakePeers;
let app: Awaited<ReturnType<typeof buildTestApp>>;
let proxy: Awaited<ReturnType<typeof startCuttingProxy>>;
beforeAll(async () => {
  peers = await startFakePeers();
  app = await buildTestApp(peers.url);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  proxy = await startCuttingProxy(url);
});
afterAll(async () => {
  await proxy.close();
  await app.close();
  await peers.close();
});

const MISSIONS = `/api/v1/households/${H}/orchestrator/missions`;
const post = (path: string, body: object, key: string) =>
  fetch(`${proxy.url}${path}`, {
    method: 'POST',
    headers: { ...as('usr_owner'), 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
type View = { mission_id: string; history: Array<{ role: string }> };
const viewOf = async (res: Response) => (await res.json()) as View;
const searches = () => peers.calls.filter((c) => c.url === '/api/v1/search').length;

describe('a retry under the same Idempotency-Key after the answer was lost', () => {
  it('finds the mission the lost create made instead of creating a second one', async () => {
    const body = { mission_type: 'STYLE', initial_message: 'a linen shirt under 80' };
    proxy.state.cut = `POST ${MISSIONS} `;
    await expect(post(MISSIONS, body, 'create-1')).rejects.toThrow();
    proxy.state.cut = null;
    const searchesAfterFirst = searches();
    expect(searchesAfterFirst).toBe(1);

    const retry = await post(MISSIONS, body, 'create-1');
    expect(retry.status).toBe(201);
    const mission = await viewOf(retry);
    expect(mission.history.map((m: { role: string }) => m.role)).toEqual(['user', 'model']);
    expect(searches()).toBe(searchesAfterFirst);
    const mine = await app.inject({ method: 'GET', url: `${MISSIONS}?mine=true`, headers: as('usr_owner') });
    const listed = mine.json();
    const missions = (Array.isArray(listed) ? listed : listed.items) as Array<{ mission_id: string }>;
    expect(missions.map((m) => m.mission_id)).toEqual([mission.mission_id]);
  });

  it('answers a chat turn that already ran with its reply, running nothing again', async () => {
    const created = await post(MISSIONS, { mission_type: 'STYLE', initial_message: 'hello' }, 'create-2');
    const { mission_id } = await viewOf(created);
    const chat = `${MISSIONS}/${mission_id}/chat`;
    proxy.state.cut = `POST ${chat} `;
    await expect(post(chat, { message: 'a linen shirt under 80' }, 'turn-1')).rejects.toThrow();
    proxy.state.cut = null;
    // The lost turn runs to its end in the orchestrator; wait until it has.
    await expect
      .poll(
        async () =>
          (
            await app.inject({ method: 'GET', url: `${MISSIONS}/${mission_id}`, headers: as('usr_owner') })
          ).json().history.length,
      )
      .toBe(4);
    const before = searches();

    const retry = await post(chat, { message: 'a linen shirt under 80' }, 'turn-1');
    expect(retry.status).toBe(200);
    const view = await viewOf(retry);
    expect(view.history.map((m: { role: string }) => m.role)).toEqual(['user', 'model', 'user', 'model']);
    expect(searches()).toBe(before);

    // Another key is another message: it runs.
    const next = await post(chat, { message: 'a linen shirt under 80' }, 'turn-2');
    expect((await viewOf(next)).history).toHaveLength(6);
  });
});
