import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { VtoJob } from '@hs/contracts';
import type { BlobStorage, ObjectInfo } from '@hs/storage';
import { createStore } from '@hs/store';
import { PNG } from 'pngjs';
import { buildApp, type VtoDeps } from '../src/app.ts';
import { loadVtoConfig } from '../src/config.ts';

export const HH = 'h_alpha';
export const OTHER_HH = 'h_beta';
export const ALICE = 'usr_alice';
export const BOB = 'usr_bob';
export const MALLORY = 'usr_mallory';

/** BlobStorage in memory, shaped like the local backend (`local://key` refs). */
export function createFakeStorage(): BlobStorage & {
  objects: Map<string, { bytes: Uint8Array; info: ObjectInfo }>;
} {
  const objects = new Map<string, { bytes: Uint8Array; info: ObjectInfo }>();
  return {
    backend: 'local',
    objects,
    async put(key, bytes, contentType) {
      const info = {
        key,
        size: bytes.byteLength,
        contentType,
        sha256: null,
        updatedAt: new Date().toISOString(),
      };
      objects.set(key, { bytes, info });
      return info;
    },
    async get(key) {
      return objects.get(key) ?? null;
    },
    async stat(key) {
      return objects.get(key)?.info ?? null;
    },
    async delete(key) {
      objects.delete(key);
    },
    async signUpload() {
      throw new Error('not used by vto');
    },
    refFor: (key) => `local://${key}`,
  };
}

/** The gateway's internal membership route, answering for two households. */
export async function startFakeGateway(
  token: string,
): Promise<{ url: string; calls: string[]; close(): Promise<void> }> {
  const members: Record<string, string[]> = { [HH]: [ALICE, BOB], [OTHER_HH]: [MALLORY] };
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    calls.push(req.url ?? '');
    const match = req.url?.match(/^\/api\/v1\/internal\/households\/([^/]+)\/members$/);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers['x-internal-token'] !== token)
      return reply(403, { error: 'FORBIDDEN', message: 'bad token' });
    const ids = match ? members[decodeURIComponent(match[1]!)] : undefined;
    if (!ids) return reply(404, { error: 'NOT_FOUND', message: 'Household not found' });
    reply(200, {
      householdId: match![1],
      members: ids.map((memberId) => ({
        memberId,
        role: 'ADULT',
        displayName: null,
        addedAt: '2025-01-01T00:00:00.000Z',
        addedBy: memberId,
      })),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise((r) => server.close(() => r())) };
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

export async function buildTestApp(env: Record<string, string> = {}, deps: Partial<VtoDeps> = {}) {
  const gateway = await startFakeGateway('gw-token');
  const config = loadVtoConfig({
    APP_ENV: 'test',
    GATEWAY_BASE_URL: gateway.url,
    GATEWAY_INTERNAL_TOKEN: 'gw-token',
    VTO_INTERNAL_TOKEN: 'vto-token',
    VTO_WORKER_POLL_MS: '20',
    ...env,
  });
  const ownStore = !deps.store;
  const store = deps.store ?? createStore({ backend: 'inmemory' });
  const storage = (deps.storage as ReturnType<typeof createFakeStorage> | undefined) ?? createFakeStorage();
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
