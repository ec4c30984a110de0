import type { BrowserSession } from '@hs/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBridge, internal, startFakeOrchestrator } from './harness.ts';

type App = Awaited<ReturnType<typeof buildBridge>>;
let orchestrator: Awaited<ReturnType<typeof startFakeOrchestrator>>;
let app: App;
beforeAll(async () => {
  orchestrator = await startFakeOrchestrator();
  app = await buildBridge({ orchestratorUrl: orchestrator.url });
});
afterAll(async () => {
  await app.close();
  await orchestrator.close();
});

const create = (key: string | null, missionId = 'msn_keyed') =>
  app.inject({
    method: 'POST',
    url: '/api/v1/sessions',
    headers: { ...internal, ...(key ? { 'idempotency-key': key } : {}) },
    payload: { householdId: 'h_keyed', missionId, startUrl: 'https://shop.example.com/' },
  });

describe('POST /sessions with an Idempotency-Key (a create whose answer was lost, retried)', () => {
  it('returns the session the first create made instead of opening a second', async () => {
    const first = await create('msn_keyed:browser-session:1');
    expect(first.statusCode).toBe(201);
    const again = await create('msn_keyed:browser-session:1');
    expect(again.statusCode).toBe(201);
    expect((again.json() as BrowserSession).sessionId).toBe((first.json() as BrowserSession).sessionId);
    const other = await create('msn_keyed:browser-session:2');
    expect((other.json() as BrowserSession).sessionId).not.toBe((first.json() as BrowserSession).sessionId);
    // The same key from another mission names another session.
    const elsewhere = await create('msn_keyed:browser-session:1', 'msn_other');
    expect((elsewhere.json() as BrowserSession).sessionId).not.toBe(
      (first.json() as BrowserSession).sessionId,
    );
  });

  it('opens a fresh session when the one the key named has ended since', async () => {
    const first = (await create('msn_keyed:browser-session:9')).json() as BrowserSession;
    await app.inject({
      method: 'POST',
      url: `/api/v1/sessions/${first.sessionId}/terminate`,
      headers: internal,
    });
    const again = await create('msn_keyed:browser-session:9');
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ status: 'ACTIVE' });
    expect((again.json() as BrowserSession).sessionId).not.toBe(first.sessionId);
  });
});
