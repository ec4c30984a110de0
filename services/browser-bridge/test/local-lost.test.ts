// A local session whose Chromium ends on its own (killed, crashed) is FAILED at once, not left
// ACTIVE until someone tries to use it.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumLaunchedHere } from '@hs/browser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildBridge, internal, startFakeOrchestrator, startShopPage } from './harness.ts';

let orch: Awaited<ReturnType<typeof startFakeOrchestrator>>;
let site: Awaited<ReturnType<typeof startShopPage>>;
let siteHost: string;

beforeAll(async () => {
  orch = await startFakeOrchestrator();
  site = await startShopPage();
  siteHost = site.host;
});

afterAll(async () => {
  site?.close();
  await orch?.close();
});

it('marks a local session FAILED when its browser is killed, and writes its recording', async () => {
  const blobs = mkdtempSync(join(tmpdir(), 'bridge-lost-'));
  const app = await buildBridge({
    orchestratorUrl: orch.url,
    env: {
      ARTIFACT_LOCAL_DIR: blobs,
      BROWSER_PROVIDER: 'local',
      ALLOW_PRIVATE_MERCHANT_HOSTS: siteHost,
    },
  });
  try {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/sessions',
      headers: internal,
      payload: { householdId: 'h_home', missionId: 'msn_lost', startUrl: `http://${siteHost}/` },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().sessionId;
    const browsers = chromiumLaunchedHere();
    expect(browsers).toHaveLength(1);
    process.kill(-browsers[0]!, 'SIGKILL');

    const read = async () =>
      (await app.inject({ method: 'GET', url: `/api/v1/sessions/${id}`, headers: internal })).json();
    await expect.poll(async () => (await read()).status, { timeout: 10_000, interval: 100 }).toBe('FAILED');
    expect((await read()).actionLog.at(-1)).toMatchObject({
      actor: 'system',
      type: 'FAILED: The browser ended unexpectedly (crashed or stopped answering)',
    });
    // Its action log up to the loss is kept, as a terminated session's is.
    const recording = join(blobs, 'households', 'h_home', 'missions', 'msn_lost', 'recordings', `${id}.json`);
    await expect.poll(() => existsSync(recording), { timeout: 5000, interval: 100 }).toBe(true);
  } finally {
    await app.close();
  }
}, 30_000);
