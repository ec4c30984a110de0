// What a member writes about a mission (a MissionPlan, an AuditLog export) must name a mission of
// the household: the orchestrator (here a fake peer) says which missions exist and who may read them.
import { type FakePeer, startFakePeer } from '@hs/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_PLANS_AHEAD_PER_HOUSEHOLD } from '../src/adapters/artifact-repository.ts';
import { buildTestApp, type FakeMission, internal, startFakeOrchestrator, type TestApp } from './harness.ts';

const H = '/api/v1/households';
/** h_1's missions: msn_own (usr_adult's), msn_other (usr_someone's STYLE mission). */
const MISSIONS: Record<string, FakeMission> = {
  msn_own: { household: 'h_1', owner: 'usr_adult' },
  msn_other: { household: 'h_1', owner: 'usr_someone' },
  msn_elsewhere: { household: 'h_2', owner: 'usr_adult' },
};

let orchestrator: FakePeer;
beforeAll(async () => {
  orchestrator = await startFakeOrchestrator(MISSIONS);
});
afterAll(() => orchestrator.close());

let app: TestApp;
beforeEach(async () => {
  ({ app } = await buildTestApp({ orchestratorUrl: orchestrator.url }));
});
afterEach(() => app.close());

const member = (role: string, userId: string) => ({
  ...internal,
  'x-user-id': userId,
  'x-member-role': role,
});
const plan = (missionId: string) => ({ missionId, missionType: 'STYLE', goal: 'A coat' });
const postPlan = (missionId: string, headers: Record<string, string>) =>
  app.inject({ method: 'POST', url: `${H}/h_1/artifacts/mission-plan`, headers, payload: plan(missionId) });
const listArtifacts = async (missionId: string) =>
  (
    await app.inject({ method: 'GET', url: `${H}/h_1/missions/${missionId}/artifacts`, headers: internal })
  ).json();

/** The MISSION_CREATED entry the orchestrator writes when a mission starts, in its household's trail. */
const openTrail = (householdId: string, missionId: string, owner: string) =>
  app.inject({
    method: 'POST',
    url: `${H}/${householdId}/audit/events`,
    headers: internal,
    payload: {
      missionId,
      category: 'MISSION_LIFECYCLE',
      action: 'MISSION_CREATED',
      detail: { missionType: 'STYLE' },
      actorId: owner,
      sourceService: 'orchestrator',
    },
  });

describe("a member's MissionPlan", () => {
  it('is stored for a mission id that does not exist yet: a plan is its request, worked out', async () => {
    const res = await postPlan('msn_planned', member('ADULT', 'usr_adult'));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ householdId: 'h_1', missionId: 'msn_planned', type: 'MissionPlan' });
    expect((await listArtifacts('msn_planned')).map((a: { type: string }) => a.type)).toEqual([
      'MissionPlan',
    ]);
    // One per mission.
    expect((await postPlan('msn_planned', member('ADULT', 'usr_adult'))).statusCode).toBe(409);
  });

  it('is bounded for missions that do not exist: 200 per household, then 409; real missions still plan', async () => {
    const ahead = member('CHILD', 'usr_child');
    for (let i = 0; i < MAX_PLANS_AHEAD_PER_HOUSEHOLD; i++)
      expect((await postPlan(`msn_ahead${i}`, ahead)).statusCode).toBe(201);
    const over = await postPlan('msn_onemore', ahead);
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toBe('CONFLICT');
    expect(await listArtifacts('msn_onemore')).toEqual([]);
    expect((await postPlan('msn_own', member('ADULT', 'usr_adult'))).statusCode).toBe(201);
  });

  it("is 404 NOT_FOUND for another household's mission, even one the caller owns there", async () => {
    expect((await openTrail('h_2', 'msn_elsewhere', 'usr_adult')).statusCode).toBe(201);
    const res = await postPlan('msn_elsewhere', member('PARENT_GUARDIAN', 'usr_adult'));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Mission not found' });
    // Nothing stored in h_1 for it: h_1's list of that mission is missing too.
    expect((await listArtifacts('msn_elsewhere')).error).toBe('NOT_FOUND');
  });

  it("is 403 FORBIDDEN for another member's mission the caller may not read", async () => {
    const res = await postPlan('msn_other', member('CHILD', 'usr_child'));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'FORBIDDEN',
      message:
        "A mission plan may be requested only for a mission the caller may read (its owner's, or a POLL mission)",
    });
    expect(await listArtifacts('msn_other')).toEqual([]);
  });

  it("is stored for the caller's own mission, asked as the caller", async () => {
    const res = await postPlan('msn_own', member('ADULT', 'usr_adult'));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ householdId: 'h_1', missionId: 'msn_own', type: 'MissionPlan' });
    expect(orchestrator.headers.at(-1)).toMatchObject({ 'x-user-id': 'usr_adult', 'x-member-role': 'ADULT' });
  });

  it("is written without a lookup for the orchestrator's own call (no caller)", async () => {
    const before = orchestrator.calls.length;
    expect((await postPlan('msn_new', internal)).statusCode).toBe(201);
    expect(orchestrator.calls.length).toBe(before);
  });
});

describe("a guardian's AuditLog export", () => {
  const exportLog = (missionId: string) =>
    app.inject({
      method: 'POST',
      url: `${H}/h_1/missions/${missionId}/artifacts/audit-log`,
      headers: member('PARENT_GUARDIAN', 'usr_guardian'),
    });

  it('is 404 NOT_FOUND for a mission that does not exist, and nothing is stored', async () => {
    const res = await exportLog('msn_nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Mission not found' });
    expect(await listArtifacts('msn_nope')).toEqual([]);
  });

  it("covers every mission of the household, another member's included", async () => {
    const res = await exportLog('msn_other');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ missionId: 'msn_other', type: 'AuditLog' });
  });
});

describe("a member's read of a mission's artifacts or audit trail", () => {
  const read = (path: string) =>
    app.inject({
      method: 'GET',
      url: `${H}/h_1/missions/${path}`,
      headers: member('PARENT_GUARDIAN', 'usr_guardian'),
    });
  const accessEntries = async () =>
    (
      await app.inject({ method: 'GET', url: `${H}/h_1/audit?category=DATA_ACCESS`, headers: internal })
    ).json().items;

  it.each(['msn_nope/artifacts', 'msn_nope/audit'])(
    '%s is 404 NOT_FOUND for a mission that does not exist, and records no read',
    async (path) => {
      const res = await read(path);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Mission not found' });
      expect(await accessEntries()).toEqual([]);
    },
  );

  it.each(['msn_other/artifacts', 'msn_other/audit'])(
    "%s answers for another member's mission of the household",
    async (path) => {
      const res = await read(path);
      expect(res.statusCode).toBe(200);
    },
  );
});

describe('with the orchestrator down', () => {
  let down: TestApp;
  beforeEach(async () => {
    // A loopback port nothing listens on: every mission lookup fails to connect.
    const gone = await startFakePeer(() => ({ status: 200, body: {} }));
    await gone.close();
    ({ app: down } = await buildTestApp({ orchestratorUrl: gone.url }));
  });
  afterEach(() => down.close());
  const guardian = member('PARENT_GUARDIAN', 'usr_guardian');

  it('still serves the trail and artifacts of a mission whose trail is here (the ledger knows it)', async () => {
    const created = await down.inject({
      method: 'POST',
      url: `${H}/h_1/audit/events`,
      headers: internal,
      payload: {
        missionId: 'msn_own',
        category: 'MISSION_LIFECYCLE',
        action: 'MISSION_CREATED',
        detail: { missionType: 'STYLE' },
        actorId: 'usr_adult',
        sourceService: 'orchestrator',
      },
    });
    expect(created.statusCode).toBe(201);
    for (const path of ['audit', 'artifacts']) {
      const res = await down.inject({
        method: 'GET',
        url: `${H}/h_1/missions/msn_own/${path}`,
        headers: guardian,
      });
      expect(res.statusCode, path).toBe(200);
    }
  });

  it('answers 502 for a mission it cannot place, rather than an empty answer', async () => {
    const res = await down.inject({
      method: 'GET',
      url: `${H}/h_1/missions/msn_nope/audit`,
      headers: guardian,
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe('UPSTREAM_ERROR');
  });
});
