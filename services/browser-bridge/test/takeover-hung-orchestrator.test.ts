import { createServer, type Server } from 'node:http';
import type { BrowserSession } from '@hs/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBridge, internal } from './harness.ts';

// An orchestrator that takes the call and never answers (a stopped process, a hung event loop).
let hung: Server;
let app: Awaited<ReturnType<typeof buildBridge>>;

beforeAll(async () => {
  hung = createServer(() => {});
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  const address = hung.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // Calls between services may wait longer than this test does: only the short best-effort
  // notice lets takeover and release answer in time.
  app = await buildBridge({
    orchestratorUrl: `http://127.0.0.1:${port}`,
    env: { INTERNAL_API_TIMEOUT_SECONDS: '60' },
  });
});
afterAll(async () => {
  await app.close();
  hung.closeAllConnections();
  await new Promise((resolve) => hung.close(resolve));
});

const post = (url: string, payload?: object) =>
  app.inject({ method: 'POST', url, headers: internal, ...(payload ? { payload } : {}) });

describe('takeover and release while the orchestrator hangs', () => {
  it('answer with the changed session instead of waiting out the inter-service timeout', async () => {
    const created = await post('/api/v1/sessions', {
      householdId: 'h_one',
      missionId: 'msn_interactive1',
      startUrl: 'https://shop.example.com/',
    });
    expect(created.statusCode).toBe(201);
    const { sessionId } = created.json() as BrowserSession;

    const taken = await post(`/api/v1/sessions/${sessionId}/takeover`);
    expect(taken.statusCode).toBe(200);
    expect(taken.json().status).toBe('USER_TAKEOVER');

    const released = await post(`/api/v1/sessions/${sessionId}/release`);
    expect(released.statusCode).toBe(200);
    expect(released.json().status).toBe('ACTIVE');
  }, 15_000);
});
