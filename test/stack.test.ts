// The whole stack as eight real processes on loopback, with the embedded durable store, driven
// through the typed client like the journeys.
import type { operations } from '@hs/client';
import { ServiceName } from '@hs/contracts';
import { type RunningStack, startStack } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JourneyClient, journeyClient, reply } from './journey-client.ts';

const SERVICES = ServiceName.options;
let stack: RunningStack;
let client: JourneyClient;

beforeAll(async () => {
  stack = await startStack({
    services: SERVICES,
    durable: true,
    // The ledger-down test waits for the gateway's audit retries: at most 1 s apart here, not 60.
    perService: { gateway: { AUDIT_RETRY_MAX_SECONDS: '1' } },
  });
  client = journeyClient(stack.url('gateway'));
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

describe('the stack', () => {
  it('runs eight healthy, ready services that each publish an OpenAPI document', async () => {
    for (const service of SERVICES) {
      const health: unknown = await fetch(`${stack.url(service)}/health`).then((r) => r.json());
      expect(health).toEqual({ status: 'ok', service, version: expect.any(String) });
      const ready = await fetch(`${stack.url(service)}/ready`);
      expect(ready.status).toBe(200);
      const doc = (await fetch(`${stack.url(service)}/openapi.json`).then((r) => r.json())) as {
        openapi: string;
      };
      expect(doc.openapi).toBe('3.1.0');
    }
  });

  it('records household and member actions in the audit log, with an intact hash chain', async () => {
    const parent = await client.login('stack-parent@family.test');
    const adult = await client.login('stack-adult@family.test');
    const child = await client.login('stack-child@family.test');
    // Fails unless the household and each member come back 201.
    const id = await client.household(parent, 'Stack family', [
      [adult, 'ADULT'],
      [child, 'CHILD'],
    ]);
    const changed = await client.as(parent).PATCH('/api/v1/households/{id}/members/{memberId}', {
      params: { path: { id, memberId: child.userId } },
      body: { displayName: 'Kiddo' },
    });
    expect(changed.response.status).toBe(200);
    const removed = await client.as(parent).DELETE('/api/v1/households/{id}/members/{memberId}', {
      params: { path: { id, memberId: adult.userId } },
    });
    expect(removed.response.status).toBe(204);

    // Entries reach the ledger through the gateway's audit outbox: each action's answer waits for
    // its entry only so long (a slow ledger must not hold a family's requests), so wait for the
    // five here, on the ledger's internal route (a read there is not itself recorded).
    await expect
      .poll(
        async () => {
          const page = await fetch(`${stack.url('artifacts-audit')}/api/v1/households/${id}/audit`, {
            headers: { 'x-internal-token': 'dev-internal-token-artifacts-audit' },
          }).then((r) => r.json() as Promise<{ total?: number }>);
          return page.total ?? 0;
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBeGreaterThanOrEqual(5);

    type AuditQuery = NonNullable<operations['listAuditLogs']['parameters']['query']>;
    const auditLog = (user: typeof parent, query: AuditQuery = {}) =>
      client
        .as(user)
        .GET('/api/v1/households/{id}/audit-logs', { params: { path: { id }, query } })
        .then(reply);
    const log = await auditLog(parent);
    expect(log.status).toBe(200);
    expect(log.body.map((e: { action: string }) => e.action)).toEqual([
      'MEMBER_REMOVED',
      'MEMBER_CHANGED',
      'MEMBER_ADDED',
      'MEMBER_ADDED',
      'HOUSEHOLD_CREATED',
    ]);
    expect(log.body[4]).toMatchObject({
      targetType: 'HOUSEHOLD',
      actorId: parent.userId,
      createdAt: expect.any(String),
    });
    const filtered = await auditLog(parent, { action: 'MEMBER_ADDED', limit: 1 });
    expect(filtered.body).toHaveLength(1);
    expect(filtered.headers.get('x-total-count')).toBe('2');

    const outsider = await client.login('stack-outsider@other.test');
    const refused = await auditLog(outsider);
    expect(refused.body).toEqual({ error: 'FORBIDDEN', message: 'User is not a household member' });
    const byChild = await auditLog(child);
    expect(byChild.status).toBe(403);
    expect(byChild.body).toEqual({
      error: 'FORBIDDEN',
      message: 'Only a PARENT_GUARDIAN may read the audit log',
    });
    const reads = await auditLog(parent, { category: 'DATA_ACCESS' });
    expect(reads.body.map((e: { action: string; actorId: string }) => [e.action, e.actorId])).toEqual([
      ['AUDIT_LOG_READ', parent.userId],
      ['AUDIT_LOG_READ', parent.userId],
    ]);

    const verify = await fetch(`${stack.url('artifacts-audit')}/api/v1/households/${id}/audit/verify`, {
      headers: { 'x-internal-token': 'dev-internal-token-artifacts-audit' },
    }).then((r) => r.json() as Promise<unknown>);
    // The five actions and the three reads of the log by the guardian (the refused reads leave none).
    expect(verify).toMatchObject({ valid: true, entriesChecked: 8, firstBrokenSeq: null });
  });

  it('keeps data written through the sqlite backend across a restart of the gateway', async () => {
    const parent = await client.login('restart@family.test');
    const created = await client.as(parent).POST('/api/v1/households', { body: { name: 'Durable' } });
    expect(created.response.status).toBe(201);
    await stack.kill('gateway');
    await stack.start('gateway');
    const again = await client
      .as(parent)
      .GET('/api/v1/households/{id}', { params: { path: { id: created.data!.householdId } } })
      .then(reply);
    expect(again.status).toBe(200);
    expect(again.body.name).toBe('Durable');
  });

  it('delivers audit entries written while the ledger was down once it is back', async () => {
    const parent = await client.login('ledger-down@family.test');
    await stack.stop('artifacts-audit');
    const created = await client.as(parent).POST('/api/v1/households', { body: { name: 'Patient' } });
    expect(created.response.status).toBe(201);
    await stack.start('artifacts-audit');
    const id = created.data!.householdId;
    let actions: string[] = [];
    const deadline = Date.now() + 30_000;
    while (actions.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      const log = await client
        .as(parent)
        .GET('/api/v1/households/{id}/audit-logs', { params: { path: { id } } })
        .then(reply);
      // Each read is itself recorded (DATA_ACCESS); only the household's own actions matter here.
      actions =
        log.status === 200
          ? log.body
              .filter((e: { category: string }) => e.category !== 'DATA_ACCESS')
              .map((e: { action: string }) => e.action)
          : [];
    }
    expect(actions).toEqual(['HOUSEHOLD_CREATED']);
  }, 60_000);
});
