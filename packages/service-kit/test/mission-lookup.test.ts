import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceApp } from '../src/create-app.ts';
import { forbidden, notFound } from '../src/errors.ts';
import { createMissionLookup } from '../src/mission-lookup.ts';
import { createPeerClient } from '../src/peer-client.ts';

const MISSION = {
  mission_id: 'msn_1',
  household_id: 'h_1',
  owner_id: 'usr_owner',
  mission_type: 'STYLE',
  state: 'RUNNING',
};
/** A long conversation: what the whole mission carries and its access read does not. */
const HISTORY = Array.from({ length: 2000 }, (_, i) => ({ id: `msg_${i}`, content: 'x'.repeat(1000) }));
const caller = { userId: 'usr_owner', role: 'ADULT' as const, email: 'owner@example.com' };

/** An orchestrator that serves the access read (`withAccess`) or only the whole mission (an older one). */
async function orchestrator(withAccess: boolean) {
  const paths: string[] = [];
  const app: ServiceApp = await createServiceApp({ service: 'orchestrator', description: 'test' });
  const base = '/api/v1/households/:id/orchestrator/missions/:mId';
  app.addHook('onRequest', async (request) => {
    paths.push(request.url);
  });
  const found = (mId: string) => {
    if (mId === 'msn_theirs') throw forbidden("Only the mission's owner can follow this mission");
    if (mId !== MISSION.mission_id && mId !== 'msn_confused') throw notFound('Mission not found');
  };
  app.get<{ Params: { mId: string } }>(base, async (request) => {
    found(request.params.mId);
    return { ...MISSION, history: HISTORY, plan: [], brief: {}, artifacts: [] };
  });
  if (withAccess)
    app.get<{ Params: { mId: string } }>(`${base}/access`, async (request) => {
      found(request.params.mId);
      // msn_confused: an orchestrator answering for another mission than the one asked.
      return MISSION;
    });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const lookup = createMissionLookup(
    createPeerClient({
      service: 'orchestrator',
      baseUrl: `http://127.0.0.1:${port}`,
      token: 't',
      timeoutMs: 5000,
    }),
  );
  return { app, paths, lookup };
}

let current: Awaited<ReturnType<typeof orchestrator>>;
let older: Awaited<ReturnType<typeof orchestrator>>;
beforeAll(async () => {
  current = await orchestrator(true);
  older = await orchestrator(false);
});
afterAll(async () => {
  await current.app.close();
  await older.app.close();
});

describe('mission lookup', () => {
  it("reads the mission's access fields alone, not its history", async () => {
    current.paths.length = 0;
    expect(await current.lookup('h_1', 'msn_1', caller, 'req_1')).toEqual(MISSION);
    expect(current.paths).toEqual(['/api/v1/households/h_1/orchestrator/missions/msn_1/access']);
  });

  it("a missing mission is the orchestrator's 404, asked once", async () => {
    current.paths.length = 0;
    await expect(current.lookup('h_1', 'msn_gone', caller, 'req_2')).rejects.toMatchObject({
      status: 404,
      message: 'Mission not found',
    });
    expect(current.paths).toHaveLength(1);
  });

  it('an orchestrator without the access read (a rolling deploy) is asked for the whole mission', async () => {
    older.paths.length = 0;
    expect(await older.lookup('h_1', 'msn_1', caller, 'req_3')).toEqual(MISSION);
    expect(older.paths).toEqual([
      '/api/v1/households/h_1/orchestrator/missions/msn_1/access',
      '/api/v1/households/h_1/orchestrator/missions/msn_1',
    ]);
    await expect(older.lookup('h_1', 'msn_gone', caller, 'req_4')).rejects.toMatchObject({
      status: 404,
      message: 'Mission not found',
    });
  });
  it("the caller's 403 comes back as it is, without asking for the whole mission", async () => {
    current.paths.length = 0;
    await expect(current.lookup('h_1', 'msn_theirs', caller, 'req_5')).rejects.toMatchObject({ status: 403 });
    expect(current.paths).toHaveLength(1);
  });

  it('"." and ".." are no mission (the URL would fold them into another path): 404, nothing asked', async () => {
    current.paths.length = 0;
    for (const id of ['.', '..'])
      await expect(current.lookup('h_1', id, caller, 'req_6')).rejects.toMatchObject({
        status: 404,
        message: 'Mission not found',
      });
    expect(current.paths).toEqual([]);
  });

  it('an answer about another mission than the one asked is 502, not taken for it', async () => {
    await expect(current.lookup('h_1', 'msn_confused', caller, 'req_7')).rejects.toMatchObject({
      status: 502,
      code: 'UPSTREAM_ERROR',
    });
    await expect(current.lookup('h_2', 'msn_1', caller, 'req_8')).rejects.toMatchObject({ status: 502 });
  });
});
