// Who reads which artifact: an AuditLog export only a PARENT_GUARDIAN (like the audit log); any
// other artifact of a mission only those who may follow the mission (its owner, any member for a
// POLL mission). Owner and type come from the mission's MISSION_CREATED entry in the ledger; the
// orchestrator (a fake peer here) is asked only for a mission the ledger cannot place.
import { type FakePeer, startFakePeer } from '@hs/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type FakeMission, internal, startFakeOrchestrator, type TestApp } from './harness.ts';

const H = '/api/v1/households/h_1';
const GUARDIAN_ONLY = { error: 'FORBIDDEN', message: 'Only a PARENT_GUARDIAN may read the audit log' };
const NOT_A_FOLLOWER = {
  error: 'FORBIDDEN',
  message: "Only the mission's owner may read its artifacts (any member, for a POLL mission)",
};

/** The orchestrator's missions of h_1 (for the ones the ledger has no MISSION_CREATED of). */
const ORCHESTRATOR_MISSIONS: Record<string, FakeMission> = {
  msn_unrecorded: { household: 'h_1', owner: 'usr_adult', type: 'STYLE' },
};

let orchestrator: FakePeer;
beforeAll(async () => {
  orchestrator = await startFakeOrchestrator(ORCHESTRATOR_MISSIONS);
});
afterAll(() => orchestrator.close());

const member = (role: string, userId: string) => ({
  ...internal,
  'x-user-id': userId,
  'x-member-role': role,
});
const guardian = member('PARENT_GUARDIAN', 'usr_guardian');
const owner = member('ADULT', 'usr_adult');
const otherAdult = member('ADULT', 'usr_other');
const child = member('CHILD', 'usr_child');

/** A mission as the orchestrator opens it: its MISSION_CREATED entry (owner, type), then its artifacts. */
async function openMission(app: TestApp, missionId: string, ownerId: string, missionType: string) {
  const res = await app.inject({
    method: 'POST',
    url: `${H}/audit/events`,
    headers: internal,
    payload: {
      missionId,
      category: 'MISSION_LIFECYCLE',
      action: 'MISSION_CREATED',
      detail: { missionType },
      actorId: ownerId,
      targetType: 'mission',
      targetId: missionId,
      sourceService: 'orchestrator',
    },
  });
  expect(res.statusCode).toBe(201);
}

/** The orchestrator's Transcript of the mission (a service's write); its artifactId. */
async function writeTranscript(app: TestApp, missionId: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `${H}/artifacts/transcript`,
    headers: internal,
    payload: {
      missionId,
      entries: [{ role: 'user', content: 'A private wish list', createdAt: '2026-01-01T10:00:00Z' }],
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json().artifactId;
}

/** A guardian's AuditLog export of the mission; its artifactId. */
async function exportAuditLog(app: TestApp, missionId: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `${H}/missions/${missionId}/artifacts/audit-log`,
    headers: guardian,
  });
  expect(res.statusCode).toBe(201);
  return res.json().artifactId;
}

const getArtifact = (app: TestApp, artifactId: string, headers: Record<string, string>) =>
  app.inject({ method: 'GET', url: `${H}/artifacts/${artifactId}`, headers });
const listArtifacts = (app: TestApp, missionId: string, headers: Record<string, string>, query = '') =>
  app.inject({ method: 'GET', url: `${H}/missions/${missionId}/artifacts${query}`, headers });
const typesIn = (res: { json: () => Array<{ type: string }> }) => res.json().map((a) => a.type);
const readsRecorded = async (app: TestApp) =>
  (await app.inject({ method: 'GET', url: `${H}/audit?category=DATA_ACCESS`, headers: internal })).json()
    .items;

describe('artifact reads, with the orchestrator up', () => {
  let app: TestApp;
  beforeEach(async () => {
    ({ app } = await buildTestApp({ orchestratorUrl: orchestrator.url }));
  });
  afterEach(() => app.close());

  describe('an AuditLog artifact (the audit log)', () => {
    let auditLogId: string;
    beforeEach(async () => {
      await openMission(app, 'msn_style', 'usr_adult', 'STYLE');
      await writeTranscript(app, 'msn_style');
      auditLogId = await exportAuditLog(app, 'msn_style');
    });

    it.each([
      ['an ADULT (the mission owner)', owner],
      ['a CHILD', child],
    ])('is 403 FORBIDDEN to %s, and the refused read is not recorded', async (_who, headers) => {
      const before = (await readsRecorded(app)).length;
      const res = await getArtifact(app, auditLogId, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(GUARDIAN_ONLY);
      expect((await readsRecorded(app)).length).toBe(before);
    });

    it("is left out of the mission's list for its owner (ADULT), even when asked for by type", async () => {
      const all = await listArtifacts(app, 'msn_style', owner);
      expect(all.statusCode).toBe(200);
      expect(typesIn(all)).toEqual(['Transcript']);
      const byType = await listArtifacts(app, 'msn_style', owner, '?artifact_type=AuditLog');
      expect(byType.statusCode).toBe(200);
      expect(byType.json()).toEqual([]);
    });

    it('is read whole by a guardian, and listed for them', async () => {
      const res = await getArtifact(app, auditLogId, guardian);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ type: 'AuditLog', missionId: 'msn_style' });
      expect(res.json().data.entries.length).toBeGreaterThan(0);
      const list = await listArtifacts(app, 'msn_style', guardian);
      expect(list.statusCode).toBe(200);
      expect(typesIn(list)).toEqual(['AuditLog']);
    });
  });

  describe("another member's STYLE mission", () => {
    let transcriptId: string;
    beforeEach(async () => {
      await openMission(app, 'msn_style', 'usr_adult', 'STYLE');
      transcriptId = await writeTranscript(app, 'msn_style');
    });

    it.each([
      ['another ADULT', otherAdult],
      ['a CHILD', child],
      ['a PARENT_GUARDIAN', guardian],
    ])('keeps its Transcript from %s (403 FORBIDDEN), recording no read', async (_who, headers) => {
      const before = (await readsRecorded(app)).length;
      const res = await getArtifact(app, transcriptId, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(NOT_A_FOLLOWER);
      expect((await readsRecorded(app)).length).toBe(before);
    });

    it.each([
      ['another ADULT', otherAdult],
      ['a CHILD', child],
    ])("answers 403 FORBIDDEN to %s who lists the mission's artifacts", async (_who, headers) => {
      const res = await listArtifacts(app, 'msn_style', headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(NOT_A_FOLLOWER);
    });

    it('shows a guardian who does not follow it only its AuditLog exports', async () => {
      const before = await listArtifacts(app, 'msn_style', guardian);
      expect(before.statusCode).toBe(200);
      expect(before.json()).toEqual([]);
      expect((await listArtifacts(app, 'msn_style', guardian, '?artifact_type=Transcript')).json()).toEqual(
        [],
      );
      await exportAuditLog(app, 'msn_style');
      expect(typesIn(await listArtifacts(app, 'msn_style', guardian))).toEqual(['AuditLog']);
    });

    it('is read by its owner alone, answered by the ledger without asking the orchestrator', async () => {
      const calls = orchestrator.calls.length;
      const one = await getArtifact(app, transcriptId, owner);
      expect(one.statusCode).toBe(200);
      expect(one.json().data.entries[0].content).toBe('A private wish list');
      const list = await listArtifacts(app, 'msn_style', owner);
      expect(list.statusCode).toBe(200);
      expect(typesIn(list)).toEqual(['Transcript']);
      expect((await getArtifact(app, transcriptId, otherAdult)).statusCode).toBe(403);
      expect((await listArtifacts(app, 'msn_style', otherAdult)).statusCode).toBe(403);
      expect(orchestrator.calls.length).toBe(calls);
    });
  });

  it("lets any member read a POLL mission's artifacts, unlike the same owner's STYLE mission", async () => {
    await openMission(app, 'msn_poll', 'usr_adult', 'POLL');
    await openMission(app, 'msn_style', 'usr_adult', 'STYLE');
    const pollTranscript = await writeTranscript(app, 'msn_poll');
    const styleTranscript = await writeTranscript(app, 'msn_style');
    for (const headers of [child, otherAdult, guardian]) {
      expect((await getArtifact(app, pollTranscript, headers)).statusCode).toBe(200);
      const list = await listArtifacts(app, 'msn_poll', headers);
      expect(list.statusCode).toBe(200);
      expect(typesIn(list)).toEqual(['Transcript']);
      expect((await getArtifact(app, styleTranscript, headers)).statusCode).toBe(403);
    }
  });

  it('asks the orchestrator for a mission the ledger has no MISSION_CREATED of', async () => {
    const transcriptId = await writeTranscript(app, 'msn_unrecorded');
    expect((await getArtifact(app, transcriptId, owner)).statusCode).toBe(200);
    expect((await listArtifacts(app, 'msn_unrecorded', owner)).statusCode).toBe(200);
    expect(orchestrator.headers.at(-1)).toMatchObject({ 'x-user-id': 'usr_adult' });
    expect((await getArtifact(app, transcriptId, child)).json()).toEqual(NOT_A_FOLLOWER);
    expect((await listArtifacts(app, 'msn_unrecorded', child)).statusCode).toBe(403);
  });

  it("keeps the 404 of another household's artifact before any 403", async () => {
    await openMission(app, 'msn_style', 'usr_adult', 'STYLE');
    const transcriptId = await writeTranscript(app, 'msn_style');
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/households/h_2/artifacts/${transcriptId}`,
      headers: child,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Artifact not found' });
    expect((await getArtifact(app, transcriptId, child)).statusCode).toBe(403);
  });

  it("lets a service's own call (no caller) read every artifact a member is refused", async () => {
    await openMission(app, 'msn_style', 'usr_adult', 'STYLE');
    const transcriptId = await writeTranscript(app, 'msn_style');
    const auditLogId = await exportAuditLog(app, 'msn_style');
    expect((await getArtifact(app, transcriptId, child)).statusCode).toBe(403);
    expect((await getArtifact(app, auditLogId, child)).statusCode).toBe(403);
    expect((await listArtifacts(app, 'msn_style', child)).statusCode).toBe(403);
    expect((await getArtifact(app, transcriptId, internal)).statusCode).toBe(200);
    expect((await getArtifact(app, auditLogId, internal)).statusCode).toBe(200);
    expect(typesIn(await listArtifacts(app, 'msn_style', internal)).sort()).toEqual([
      'AuditLog',
      'Transcript',
    ]);
  });
});

describe('artifact reads, with the orchestrator down (the ledger holds the owner and type)', () => {
  let app: TestApp;
  beforeEach(async () => {
    // A loopback port nothing listens on: a mission lookup would fail to connect.
    const gone = await startFakePeer(() => ({ status: 200, body: {} }));
    await gone.close();
    ({ app } = await buildTestApp({ orchestratorUrl: gone.url }));
  });
  afterEach(() => app.close());

  it("serves the owner and refuses another member of a STYLE mission; any member reads a POLL's", async () => {
    await openMission(app, 'msn_style', 'usr_adult', 'STYLE');
    await openMission(app, 'msn_poll', 'usr_other', 'POLL');
    const styleTranscript = await writeTranscript(app, 'msn_style');
    const pollTranscript = await writeTranscript(app, 'msn_poll');

    expect((await getArtifact(app, styleTranscript, owner)).statusCode).toBe(200);
    expect((await listArtifacts(app, 'msn_style', owner)).statusCode).toBe(200);
    expect((await getArtifact(app, styleTranscript, child)).statusCode).toBe(403);
    expect((await listArtifacts(app, 'msn_style', child)).statusCode).toBe(403);
    expect((await getArtifact(app, pollTranscript, child)).statusCode).toBe(200);
    expect(typesIn(await listArtifacts(app, 'msn_poll', child))).toEqual(['Transcript']);
  });
});
