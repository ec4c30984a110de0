// A keyed retry that runs nothing costs no budget of the per-user limits: one answered 409 while
// its first attempt still runs (Retry-After: 1, as the API guide tells clients to do) is given
// back, and one answered from the stored reply is neither counted nor refused (a lost answer
// recovered), for chat turns and checkout confirmations alike.
import { createStore } from '@hs/store';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBuyflowGateway } from './buyflow-harness.ts';
import { bearer, buildGateway, type GatewayApp, login } from './gateway-harness.ts';

let orchestrator: FastifyInstance;
let orchestratorUrl = '';
let turnsRun = 0;
const apps: GatewayApp[] = [];

beforeAll(async () => {
  orchestrator = Fastify();
  // A turn takes a second: long enough for retries to arrive while it runs.
  orchestrator.post('/api/v1/*', async (_req, reply) => {
    turnsRun++;
    await new Promise((r) => setTimeout(r, 1000));
    return reply.code(201).send({ ok: true });
  });
  orchestrator.get<{ Params: { '*': string } }>('/api/v1/*', async (req) => {
    const [, householdId, , , missionId] = req.params['*'].split('/');
    return {
      mission_id: missionId,
      household_id: householdId,
      owner_id: 'u_owner',
      mission_type: 'STYLE',
      state: 'RUNNING',
    };
  });
  await orchestrator.listen({ port: 0, host: '127.0.0.1' });
  orchestratorUrl = `http://127.0.0.1:${(orchestrator.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await orchestrator.close();
});

describe('keyed retries that run nothing and the per-user limits', () => {
  it('does not count chat retries sent while the first attempt runs: the next new turn still fits', async () => {
    const app = await buildGateway(
      { ORCHESTRATOR_BASE_URL: orchestratorUrl, RATE_LIMIT_CHAT_PER_MINUTE: '2' },
      createStore({ backend: 'inmemory' }),
    );
    apps.push(app);
    const user = await login(app, 'patient@x.test');
    const h = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/households',
        headers: bearer(user.token),
        payload: { name: 'H' },
      })
    ).json().householdId as string;
    const chat = (key: string) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/households/${h}/orchestrator/missions/m1/chat`,
        headers: { ...bearer(user.token), 'idempotency-key': key },
        payload: { message: 'a coat' },
      });
    const before = turnsRun;
    const first = chat('k-slow');
    await new Promise((r) => setTimeout(r, 50));
    // Five retries one after another while it runs (a client doing as Retry-After says, sooner):
    // each 409 with Retry-After, none a 429, though the limit is 2.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const retry = await chat('k-slow');
      statuses.push(retry.statusCode);
      if (i === 0) expect(retry.headers['retry-after']).toBe('1');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(statuses).toEqual([409, 409, 409, 409, 409]);
    expect((await first).statusCode).toBe(201);
    expect(turnsRun - before).toBe(1);
    // One turn of two spent: a new one fits, the one after it does not.
    expect((await chat('k-next')).statusCode).toBe(201);
    expect((await chat('k-third')).statusCode).toBe(429);
    // The answered keys still replay over the limit.
    const replay = await chat('k-slow');
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('answers the keyed retry of a completed checkout from its stored reply over the confirmation limit', async () => {
    const t = await buildBuyflowGateway({ env: { RATE_LIMIT_CONFIRM_PER_MINUTE: '1' } });
    try {
      const { r, intent } = await t.toCartReady();
      const confirm = (key: string) =>
        t.post(
          `${r}/confirm-checkout`,
          t.adult,
          { confirmationToken: intent.confirmationToken },
          {
            'idempotency-key': key,
          },
        );
      const done = await confirm('cc-1');
      expect(done.statusCode).toBe(200);
      expect(done.json().status).toBe('COMPLETED');
      // The answer was lost; the client retries under its key, over the limit: the same answer.
      for (let i = 0; i < 3; i++) {
        const again = await confirm('cc-1');
        expect(again.statusCode).toBe(200);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json()).toEqual(done.json());
      }
      // Anything that would run is still limited.
      expect((await confirm('cc-2')).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });
});
