// A chat turn that failed (the model broke, 502) keeps nothing at the gateway, so the client's
// retry with the same Idempotency-Key reaches the orchestrator again: the message it left in the
// history, unanswered, gets its turn run again, not a replay of the unanswered mission.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentModel, ModelError } from '../src/domain/agent-model.ts';
import { createStubModel } from '../src/domain/stub-model.ts';
import { as, buildTestApp, H } from './fixtures/build.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';

let peers: FakePeers;
let app: Awaited<ReturnType<typeof buildTestApp>>;
let failNext = false;
beforeAll(async () => {
  peers = await startFakePeers();
  const stub = createStubModel() as AgentModel;
  const model: AgentModel = {
    name: 'flaky',
    async next(input, hooks) {
      if (failNext) {
        failNext = false;
        throw new ModelError('MODEL_ERROR', 'model broke');
      }
      return stub.next(input, hooks);
    },
  };
  app = await buildTestApp(peers.url, { model });
});
afterAll(async () => {
  await app.close();
  await peers.close();
});

const M = `/api/v1/households/${H}/orchestrator/missions`;
const chat = (id: string, key: string, message: string) =>
  app.inject({
    method: 'POST',
    url: `${M}/${id}/chat`,
    headers: { ...as('usr_owner'), 'idempotency-key': key },
    payload: { message },
  });

const newMission = async (): Promise<string> =>
  (
    await app.inject({
      method: 'POST',
      url: M,
      headers: as('usr_owner'),
      payload: { mission_type: 'STYLE', initial_message: 'hello' },
    })
  ).json().mission_id;

describe('a failed turn retried with the same Idempotency-Key', () => {
  it('runs the turn again on the message, once, and then replays its reply', async () => {
    const id = await newMission();
    failNext = true;
    expect((await chat(id, 'k1', 'a linen shirt under 80')).statusCode).toBe(502);

    const retry = await chat(id, 'k1', 'a linen shirt under 80');
    expect(retry.statusCode).toBe(200);
    const roles = retry.json().history.map((m: { role: string }) => m.role);
    expect(roles).toEqual(['user', 'model', 'user', 'model']);

    const again = await chat(id, 'k1', 'a linen shirt under 80');
    expect(again.statusCode).toBe(200);
    expect(again.json().history).toHaveLength(4);
  });

  it('says so (409) when the user wrote again since: there is no answer to give back', async () => {
    const id = await newMission();
    failNext = true;
    expect((await chat(id, 'k2', 'something in blue')).statusCode).toBe(502);
    expect((await chat(id, 'k3', 'cheaper please')).statusCode).toBe(200);

    const late = await chat(id, 'k2', 'something in blue');
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({
      error: 'CONFLICT',
      message:
        "This Idempotency-Key's message got no answer (its turn failed) and the conversation has gone on since; send it again under a new Idempotency-Key",
    });
    const mission = await app.inject({ method: 'GET', url: `${M}/${id}`, headers: as('usr_owner') });
    expect(mission.json().history.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'model',
      'user',
      'user',
      'model',
    ]);
  });
});
