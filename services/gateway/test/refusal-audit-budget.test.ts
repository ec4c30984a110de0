import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REFUSALS_RECORDED } from '../src/adapters/refusal-budget.ts';
import { buildBuyflowGateway } from './buyflow-harness.ts';

type Harness = Awaited<ReturnType<typeof buildBuyflowGateway>>;
let t: Harness;
beforeEach(async () => {
  t = await buildBuyflowGateway();
});
afterEach(async () => t.close());

const refusalsOf = async (actorId: string) =>
  (await t.gates()).filter((g) => g.actorId === actorId && g.detail.outcome === 'REFUSED');

describe("a caller's refusals in a household's audit log", () => {
  it("records an outsider's first refusals, says when it stops, and then keeps the family's log clean while every call is still refused", async () => {
    const tries = REFUSALS_RECORDED.limit + 15;
    for (let i = 0; i < tries; i++) {
      const res = await t.post(`/requests/pr_${i}/approve`, t.outsider);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'User is not a household member' });
    }
    const recorded = await refusalsOf(t.outsider.userId);
    expect(recorded).toHaveLength(REFUSALS_RECORDED.limit);
    const last = recorded.filter((g) => 'furtherRefusalsUnrecordedUntil' in g.detail);
    expect(last).toHaveLength(1);
    const until = Date.parse(String(last[0]?.detail.furtherRefusalsUnrecordedUntil));
    expect(until).toBeGreaterThan(Date.now());
    expect(until).toBeLessThanOrEqual(Date.now() + REFUSALS_RECORDED.windowMs);
  });

  it("counts each caller apart: a member's refusal is recorded while an outsider is over the budget", async () => {
    for (let i = 0; i <= REFUSALS_RECORDED.limit; i++) await t.post('/requests/pr_x/approve', t.outsider);
    const res = await t.post('/requests', t.child, t.item);
    expect(res.statusCode).toBe(403);
    expect(await refusalsOf(t.child.userId)).toMatchObject([
      { action: 'CREATE_PURCHASE_REQUEST', detail: { outcome: 'REFUSED', status: 403 } },
    ]);
  });

  it('counts each gate and refusal apart: twenty refused approvals cannot hide a refused create that follows', async () => {
    for (let i = 0; i <= REFUSALS_RECORDED.limit; i++) await t.post('/requests/pr_x/approve', t.child);
    expect((await t.post('/requests', t.child, t.item)).statusCode).toBe(403);
    const created = (await refusalsOf(t.child.userId)).filter((g) => g.action === 'CREATE_PURCHASE_REQUEST');
    expect(created).toHaveLength(1);
  });

  it('counts refusals inside a gate (409) in the same budget', async () => {
    const pr = (await t.post('/requests', t.adult, t.item)).json();
    const r = `/requests/${pr.requestId}`;
    expect((await t.post(`${r}/reject`, t.guardian, { reason: 'no' })).statusCode).toBe(200);
    for (let i = 0; i < REFUSALS_RECORDED.limit + 5; i++)
      expect((await t.post(`${r}/approve`, t.guardian)).statusCode).toBe(409);
    const recorded = (await refusalsOf(t.guardian.userId)).filter(
      (g) => g.action === 'APPROVE_PURCHASE_REQUEST',
    );
    expect(recorded).toHaveLength(REFUSALS_RECORDED.limit);
  });
});
