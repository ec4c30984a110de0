import type { VtoJob } from '@hs/contracts';
import { createStore } from '@hs/store';
import {
  createMemoryBlobStorage,
  type MemoryBlobStorage,
  receiptFor,
  startFakeGatewayMembers,
  startFakePeer,
} from '@hs/testing';
import { PNG } from 'pngjs';
import { buildApp, type VtoDeps } from '../src/app.ts';
import { loadVtoConfig } from '../src/config.ts';

export const HH = 'h_alpha';
export const OTHER_HH = 'h_beta';
export const ALICE = 'usr_alice';
export const BOB = 'usr_bob';
export const MALLORY = 'usr_mallory';

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

export async function buildTestApp(env: Record<string, string> = {}, deps: Partial<VtoDeps> = {}) {
  const gateway = await startFakeGatewayMembers(
    { [HH]: [ALICE, BOB], [OTHER_HH]: [MALLORY] },
    { token: 'gw-token' },
  );
  // The audit ledger accepts every entry; `audit.calls` holds what vto reported.
  const audit = await startFakePeer((call) => ({ status: 201, body: receiptFor(call) }));
  const config = loadVtoConfig({
    ARTIFACTS_AUDIT_BASE_URL: audit.url,
    APP_ENV: 'test',
    GATEWAY_BASE_URL: gateway.url,
    GATEWAY_INTERNAL_TOKEN: 'gw-token',
    VTO_INTERNAL_TOKEN: 'vto-token',
    VTO_WORKER_POLL_MS: '20',
    ...env,
  });
  const ownStore = !deps.store;
  const store = deps.store ?? createStore({ backend: 'inmemory' });
  const storage = (deps.storage as MemoryBlobStorage | undefined) ?? createMemoryBlobStorage();
  const app = await buildApp({ config, store, storage, ...deps });
  const headers = (userId = ALICE) => ({
    'x-internal-token': 'vto-token',
    'x-user-id': userId,
    'x-member-role': 'ADULT',
  });
  return {
    app,
    store,
    storage,
    gateway,
    audit,
    /** The entries vto appended to a household's audit log. */
    auditEntries: (householdId = HH) =>
      audit.calls
        .filter((c) => c.url === `/api/v1/households/${householdId}/audit/events`)
        .map((c) => c.body as Record<string, unknown>),
    headers,
    submit: (body: object, householdId = HH, userId = ALICE) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/households/${householdId}/vto/jobs`,
        headers: headers(userId),
        payload: body,
      }),
    get: (jobId: string, householdId = HH, userId = ALICE) =>
      app.inject({
        method: 'GET',
        url: `/api/v1/households/${householdId}/vto/jobs/${jobId}`,
        headers: headers(userId),
      }),
    /** Polls the job until it is SUCCEEDED or FAILED, as the app would. */
    async waitForJob(jobId: string, householdId = HH): Promise<VtoJob> {
      const until = Date.now() + 10_000;
      while (Date.now() < until) {
        const res = await app.inject({
          method: 'GET',
          url: `/api/v1/households/${householdId}/vto/jobs/${jobId}`,
          headers: headers(),
        });
        const job = res.json() as VtoJob;
        if (job.status === 'SUCCEEDED' || job.status === 'FAILED') return job;
        await new Promise((r) => setTimeout(r, 15));
      }
      throw new Error(`job ${jobId} did not finish`);
    },
    async close() {
      await app.close();
      if (ownStore) await store.close();
      await gateway.close();
      await audit.close();
    },
  };
}

/** A PNG of the given size: a flat background with a darker block in the middle (a "person"). */
export function makePng(
  width: number,
  height: number,
  rgb: [number, number, number] = [120, 90, 60],
): Uint8Array {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const inside = x > width / 4 && x < (3 * width) / 4 && y > height / 6;
      const i = (y * width + x) * 4;
      png.data[i] = inside ? rgb[0] : 255;
      png.data[i + 1] = inside ? rgb[1] : 255;
      png.data[i + 2] = inside ? rgb[2] : 255;
      png.data[i + 3] = 255;
    }
  return PNG.sync.write(png);
}

export const JPEG_BYTES = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);

export const personKey = (hh = HH) => `households/${hh}/items/item_person/img_1`;
export const garmentKey = (hh = HH) => `households/${hh}/items/item_shirt/img_1`;
