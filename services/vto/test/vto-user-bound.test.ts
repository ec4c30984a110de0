// VTO_MAX_ACTIVE_JOBS_PER_USER: one account may have many households, and each household's bound
// alone let it fill the shared try-on queue with every one's share.
import { ConfigError } from '@hs/service-kit';
import { createStore } from '@hs/store';
import { createMemoryBlobStorage, receiptFor, startFakeGatewayMembers, startFakePeer } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadVtoConfig } from '../src/config.ts';
import { garmentKey, personKey } from './helpers.ts';

const MALLORY = 'usr_mallory';
const ALICE = 'usr_alice';

let gateway: Awaited<ReturnType<typeof startFakeGatewayMembers>>;
let audit: Awaited<ReturnType<typeof startFakePeer>>;
beforeAll(async () => {
  // Mallory guards two households; Alice shares the second one.
  gateway = await startFakeGatewayMembers(
    { h_one: [MALLORY], h_two: [MALLORY, ALICE] },
    { token: 'gw-token' },
  );
  audit = await startFakePeer((call) => ({ status: 201, body: receiptFor(call) }));
});
afterAll(async () => {
  await gateway.close();
  await audit.close();
});

async function buildVto(env: Record<string, string>) {
  const config = loadVtoConfig({
    APP_ENV: 'test',
    ARTIFACTS_AUDIT_BASE_URL: audit.url,
    GATEWAY_BASE_URL: gateway.url,
    GATEWAY_INTERNAL_TOKEN: 'gw-token',
    VTO_INTERNAL_TOKEN: 'vto-token',
    ...env,
  });
  const store = createStore({ backend: 'inmemory' });
  // No worker: the jobs stay queued.
  const app = await buildApp({ config, store, storage: createMemoryBlobStorage(), background: false });
  const submit = (householdId: string, userId: string) =>
    app.inject({
      method: 'POST',
      url: `/api/v1/households/${householdId}/vto/jobs`,
      headers: { 'x-internal-token': 'vto-token', 'x-user-id': userId, 'x-member-role': 'ADULT' },
      payload: {
        personImageRef: `local://${personKey(householdId)}`,
        garmentImageRef: `local://${garmentKey(householdId)}`,
      },
    });
  return {
    submit,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

describe('try-on jobs per user across households', () => {
  it("refuses a user's try-on in a second household once they have VTO_MAX_ACTIVE_JOBS_PER_USER (429), never another user", async () => {
    const vto = await buildVto({ VTO_MAX_ACTIVE_JOBS_PER_HOUSEHOLD: '2', VTO_MAX_ACTIVE_JOBS_PER_USER: '3' });
    try {
      expect((await vto.submit('h_one', MALLORY)).statusCode).toBe(202);
      expect((await vto.submit('h_one', MALLORY)).statusCode).toBe(202);
      // The household's own bound comes first.
      expect((await vto.submit('h_one', MALLORY)).json().message).toBe(
        'This household already has 2 try-ons queued or running; try again when one is done',
      );
      const third = await vto.submit('h_two', MALLORY);
      expect(third.statusCode).toBe(202);
      expect(third.json()).not.toHaveProperty('requesterId');
      const fourth = await vto.submit('h_two', MALLORY);
      expect(fourth.statusCode).toBe(429);
      expect(fourth.headers['retry-after']).toBe('30');
      expect(fourth.json()).toEqual({
        error: 'RATE_LIMITED',
        message:
          'You already have 3 try-ons queued or running across your households; try again when one is done',
      });
      // Another member of that household still has its room.
      expect((await vto.submit('h_two', ALICE)).statusCode).toBe(202);
    } finally {
      await vto.close();
    }
  });

  it('defaults VTO_MAX_ACTIVE_JOBS_PER_USER to the household bound and stops the boot on a bad value', () => {
    expect(loadVtoConfig({}).vto.maxActiveJobsPerUser).toBe(5);
    expect(loadVtoConfig({ VTO_MAX_ACTIVE_JOBS_PER_USER: '9' }).vto.maxActiveJobsPerUser).toBe(9);
    expect(() => loadVtoConfig({ VTO_MAX_ACTIVE_JOBS_PER_USER: '0' })).toThrow(
      new ConfigError(
        'Configuration error: VTO_MAX_ACTIVE_JOBS_PER_USER Too small: expected number to be >=1 (value: "0")',
      ),
    );
    expect(() => loadVtoConfig({ VTO_MAX_ACTIVE_JOBS_PER_USER: '2.5' })).toThrow(
      /^Configuration error: VTO_MAX_ACTIVE_JOBS_PER_USER /,
    );
  });
});
