// The order of checks (decisions, Conventions): role (403), then the mission's existence in the
// household (404), then the body (413, 400 syntax): exporting the audit log of a mission that does
// not exist is 404 whatever the body, and nothing is stored.
import type { FakePeer } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, internal, startFakeOrchestrator, type TestApp } from './harness.ts';

const H = '/api/v1/households/h_1';
let orchestrator: FakePeer;
let app: TestApp;
beforeAll(async () => {
  orchestrator = await startFakeOrchestrator({ msn_there: { household: 'h_2', owner: 'usr_g' } });
  ({ app } = await buildTestApp({ orchestratorUrl: orchestrator.url }));
});
afterAll(async () => {
  await app.close();
  await orchestrator.close();
});

const member = (role: string) => ({ ...internal, 'x-user-id': 'usr_g', 'x-member-role': role });
const BODIES = {
  'bad JSON': '{"a":',
  'an oversized body': JSON.stringify({ pad: 'x'.repeat(1_100_000) }),
} as const;
const exportLog = (missionId: string, headers: Record<string, string>, body: string) =>
  app.inject({
    method: 'POST',
    url: `${H}/missions/${missionId}/artifacts/audit-log`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: body,
  });

describe('an AuditLog export of a missing mission is 404 before the body is read', () => {
  for (const [what, body] of Object.entries(BODIES))
    for (const mission of ['msn_missing', 'msn_there'])
      it(`${mission} (${mission === 'msn_there' ? "another household's" : 'missing'}) with ${what}`, async () => {
        const res = await exportLog(mission, member('PARENT_GUARDIAN'), body);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Mission not found' });
        const list = await app.inject({
          method: 'GET',
          url: `${H}/missions/${mission}/artifacts`,
          headers: internal,
        });
        expect(list.json()).toEqual([]);
      });

  it('a member other than a PARENT_GUARDIAN still hears 403 first (the guardian 404)', async () => {
    expect((await exportLog('msn_missing', member('PARENT_GUARDIAN'), '{"a":')).statusCode).toBe(404);
    const res = await exportLog('msn_missing', member('ADULT'), '{"a":');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'FORBIDDEN',
      message: 'Only a PARENT_GUARDIAN may export the audit log',
    });
  });
});
