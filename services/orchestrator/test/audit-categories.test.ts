import { describe, expect, it } from 'vitest';
import { as, H, OWNER } from './fixtures/build.ts';
import { withFakePeers } from './fixtures/with-fake-peers.ts';

const t = withFakePeers();
const M = `/api/v1/households/${H}/orchestrator/missions`;

const create = (mission_type: string, initial_message: string) =>
  t.app.inject({ method: 'POST', url: M, headers: as(OWNER), payload: { mission_type, initial_message } });

describe('audit categories written by the orchestrator', () => {
  it('records a tool call the service refused by policy as SAFETY_VIOLATION TOOL_CALL_REFUSED', async () => {
    t.peers.requests.set('pr_forbidden', { status: 'APPROVED' });
    expect((await create('CARTPREP', 'prepare pr_forbidden')).statusCode).toBe(201);
    const refused = t.peers.audit.filter((e) => e.category === 'SAFETY_VIOLATION');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      action: 'TOOL_CALL_REFUSED',
      severity: 'WARNING',
      detail: { tool: 'prepare_cart', ok: false, error: { code: 'FORBIDDEN' } },
    });
  });

  it('records an artifact delivery the outbox gives up on as a SYSTEM entry of the household', async () => {
    t.peers.behaviour.set('refuse-artifacts', 0);
    const m = (await create('STYLE', 'hello')).json();
    expect(await t.app.ctx.artifacts.outbox!.pending()).toBe(0);
    const system = t.peers.audit.filter((e) => e.category === 'SYSTEM');
    expect(system).toHaveLength(1);
    expect(system[0]).toMatchObject({
      action: 'OUTBOX_DELIVERY_ABANDONED',
      missionId: m.mission_id,
      detail: { outbox: 'artifacts', type: 'MissionPlan' },
    });
  });
});
