import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, internal, type TestApp } from './harness.ts';

let app: TestApp;
beforeEach(async () => {
  ({ app } = await buildTestApp());
});
afterEach(() => app.close());

const H = '/api/v1/households';
/** A member's call as the gateway forwards it: the internal token plus the caller's identity. */
const member = (role: string, userId = `usr_${role.toLowerCase()}`) => ({
  ...internal,
  'x-user-id': userId,
  'x-member-role': role,
});
const post = (url: string, payload: object | undefined, headers: Record<string, string> = internal) =>
  app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
const get = (url: string, headers: Record<string, string> = internal) =>
  app.inject({ method: 'GET', url, headers });

const transcript = {
  missionId: 'msn_1',
  entries: [{ role: 'user', content: 'forged history', source: 'text', createdAt: '2030-01-01T00:00:00Z' }],
};
const outcome = { missionId: 'msn_1', finalState: 'DONE', totalTurns: 1, toolCallsMade: 0 };
const recording = { missionId: 'msn_1', sessionId: 'bs_1', durationSeconds: 3, actionLog: [] };
const auditEvent = (missionId: string, action = 'MISSION_CREATED') => ({
  missionId,
  category: 'MISSION_LIFECYCLE',
  action,
  sourceService: 'orchestrator',
});

describe('who writes which artifact', () => {
  const cases = [
    ['transcript', transcript, 'Transcript artifacts are written only by the orchestrator'],
    ['outcome-summary', outcome, 'OutcomeSummary artifacts are written only by the orchestrator'],
    ['recording', recording, 'BrowserRecording artifacts are written only by the browser bridge'],
  ] as const;

  for (const [kind, body, message] of cases) {
    it(`refuses a member's ${kind} (a guardian included) with 403, and the service's own write still lands`, async () => {
      for (const role of ['CHILD', 'ADULT', 'PARENT_GUARDIAN']) {
        const res = await post(`${H}/h_1/artifacts/${kind}`, body, member(role));
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: 'FORBIDDEN', message });
      }
      expect((await get(`${H}/h_1/missions/msn_1/artifacts`)).json()).toEqual([]);
      expect((await post(`${H}/h_1/artifacts/${kind}`, body)).statusCode).toBe(201);
    });
  }

  it('refuses the member before reading the body (403, not 422)', async () => {
    const res = await post(`${H}/h_1/artifacts/transcript`, { nonsense: true }, member('CHILD'));
    expect(res.statusCode).toBe(403);
  });

  it("replays the writer's own retry (same Idempotency-Key: 200, same artifact) and refuses another key with 409", async () => {
    const keyed = { ...internal, 'idempotency-key': 'msn_1.transcript' };
    const first = await post(`${H}/h_1/artifacts/transcript`, transcript, keyed);
    expect(first.statusCode).toBe(201);
    const retry = await post(`${H}/h_1/artifacts/transcript`, transcript, keyed);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(retry.json()).not.toHaveProperty('writerKey');
    const other = await post(`${H}/h_1/artifacts/transcript`, transcript, {
      ...internal,
      'idempotency-key': 'someone-else',
    });
    expect(other.statusCode).toBe(409);
    expect((await post(`${H}/h_1/artifacts/transcript`, transcript)).statusCode).toBe(409);
  });

  it("replays the orchestrator's own retry of a mission plan (its outbox after a crash), and a member's key does not count", async () => {
    const plan = { missionId: 'msn_2', missionType: 'STYLE', goal: 'blue tops' };
    const keyed = { ...internal, 'idempotency-key': 'orchestrator.msn_2.mission-plan' };
    const first = await post(`${H}/h_1/artifacts/mission-plan`, plan, keyed);
    expect(first.statusCode).toBe(201);
    const retry = await post(`${H}/h_1/artifacts/mission-plan`, plan, keyed);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    const asMember = await post(`${H}/h_1/artifacts/mission-plan`, plan, {
      ...member('PARENT_GUARDIAN'),
      'idempotency-key': 'orchestrator.msn_2.mission-plan',
    });
    expect(asMember.statusCode).toBe(409);
  });

  it('still lets members request a MissionPlan', async () => {
    const res = await post(
      `${H}/h_1/artifacts/mission-plan`,
      { missionId: 'msn_1', missionType: 'STYLE', goal: 'A coat' },
      member('CHILD'),
    );
    expect(res.statusCode).toBe(201);
  });
});

describe('AuditLog export', () => {
  it("stores a guardian's export of the mission's audit entries, oldest first", async () => {
    await post(`${H}/h_1/audit/events`, auditEvent('msn_1'));
    await post(`${H}/h_1/audit/events`, auditEvent('msn_1', 'TOOL_CALLED'));
    await post(`${H}/h_1/audit/events`, auditEvent('msn_other'));
    const res = await post(
      `${H}/h_1/missions/msn_1/artifacts/audit-log`,
      undefined,
      member('PARENT_GUARDIAN'),
    );
    expect(res.statusCode).toBe(201);
    const artifact = res.json();
    expect(artifact).toMatchObject({ householdId: 'h_1', missionId: 'msn_1', type: 'AuditLog' });
    expect(artifact.data.entryCount).toBe(2);
    expect(artifact.data.entries.map((e: { action: string }) => e.action)).toEqual([
      'MISSION_CREATED',
      'TOOL_CALLED',
    ]);
    const listed = (await get(`${H}/h_1/missions/msn_1/artifacts?artifact_type=AuditLog`)).json();
    expect(listed.map((a: { artifactId: string }) => a.artifactId)).toEqual([artifact.artifactId]);
  });

  it('refuses an ADULT or CHILD with 403', async () => {
    for (const role of ['ADULT', 'CHILD']) {
      const res = await post(`${H}/h_1/missions/msn_1/artifacts/audit-log`, undefined, member(role));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: 'FORBIDDEN',
        message: 'Only a PARENT_GUARDIAN may export the audit log',
      });
    }
  });
});

describe("another household's mission", () => {
  beforeEach(async () => {
    await post(`${H}/h_1/audit/events`, auditEvent('msn_1'));
  });

  for (const path of ['audit', 'artifacts']) {
    it(`is 404 on /missions/{mId}/${path}, as for the owner it is not`, async () => {
      const foreign = await get(`${H}/h_2/missions/msn_1/${path}`, member('PARENT_GUARDIAN'));
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ error: 'NOT_FOUND', message: 'Mission not found' });
      expect((await get(`${H}/h_1/missions/msn_1/${path}`, member('PARENT_GUARDIAN'))).statusCode).toBe(200);
    });
  }

  it('is 404 for an AuditLog export too', async () => {
    const res = await post(
      `${H}/h_2/missions/msn_1/artifacts/audit-log`,
      undefined,
      member('PARENT_GUARDIAN'),
    );
    expect(res.statusCode).toBe(404);
  });
});

describe('reading the audit log', () => {
  it('is for guardians only: an ADULT or CHILD forwarded by the gateway gets 403', async () => {
    for (const url of [`${H}/h_1/audit`, `${H}/h_1/missions/msn_1/audit`]) {
      for (const role of ['ADULT', 'CHILD']) {
        const res = await get(url, member(role));
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({
          error: 'FORBIDDEN',
          message: 'Only a PARENT_GUARDIAN may read the audit log',
        });
      }
    }
  });

  it("records each member's read as DATA_ACCESS, and a service's read not at all", async () => {
    await post(`${H}/h_1/audit/events`, auditEvent('msn_1'));
    await get(`${H}/h_1/audit`);
    await get(`${H}/h_1/audit`, member('PARENT_GUARDIAN', 'usr_g'));
    await get(`${H}/h_1/missions/msn_1/audit`, member('PARENT_GUARDIAN', 'usr_g'));
    const reads = (await get(`${H}/h_1/audit?category=DATA_ACCESS`)).json();
    expect(
      reads.items.map((e: { action: string; actorId: string; sourceService: string }) => [
        e.action,
        e.actorId,
        e.sourceService,
      ]),
    ).toEqual([
      ['MISSION_AUDIT_READ', 'usr_g', 'artifacts-audit'],
      ['AUDIT_LOG_READ', 'usr_g', 'artifacts-audit'],
    ]);
  });

  it('records the read of an artifact as DATA_ACCESS with its target', async () => {
    const art = (await post(`${H}/h_1/artifacts/transcript`, transcript)).json();
    await get(`${H}/h_1/artifacts/${art.artifactId}`, member('CHILD', 'usr_c'));
    const reads = (await get(`${H}/h_1/audit?action=ARTIFACT_READ`)).json();
    expect(reads.items).toHaveLength(1);
    expect(reads.items[0]).toMatchObject({
      category: 'DATA_ACCESS',
      actorId: 'usr_c',
      missionId: 'msn_1',
      targetType: 'artifact',
      targetId: art.artifactId,
      detail: { type: 'Transcript' },
    });
  });
});

describe('audit action names', () => {
  it('refuses an action outside the table (one naming style) with 422', async () => {
    const res = await post(`${H}/h_1/audit/events`, auditEvent('msn_1', 'mission.created'));
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].loc).toEqual(['body', 'action']);
  });
});
