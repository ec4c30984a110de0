import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningStack, startStack } from '@hs/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, type Json, journeyClient, openMissionStream } from './journey-client.ts';

let stack: RunningStack;
beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hs-scratch-'));
  stack = await startStack({
    services: ['gateway', 'orchestrator', 'wardrobe', 'commerce', 'cartprep', 'browser-bridge', 'artifacts-audit'],
    env: { PERSISTENCE_BACKEND: 'sqlite', DATA_DIR: dataDir, ARTIFACT_LOCAL_DIR: join(dataDir, 'blobs') },
    perService: { cartprep: { CARTPREP_POLL_MS: '50' } },
  });
}, 60_000);
afterAll(async () => stack?.close());

it('probe', async () => {
  const c = journeyClient(stack.url('gateway'));
  const p = await c.login('p@x.test');
  const hid = await c.household(p, 'H');
  const rq = `/api/v1/households/${hid}/requests`;
  const r = await c.api(rq, { method: 'POST', token: p.token, body: { title: 'Shoes', url: 'https://shop.zalando.de/x?simulate=SIZE_UNAVAILABLE', price: 30, currency: 'EUR' } });
  const rid = r.body.requestId;
  await c.api(`${rq}/${rid}/approve`, { method: 'POST', token: p.token, body: {} });
  const m = await c.api(`/api/v1/households/${hid}/orchestrator/missions`, { method: 'POST', token: p.token, body: { mission_type: 'CARTPREP', initial_message: `prepare ${rid}` } });
  console.log(m.status, JSON.stringify(m.body.history.at(-1)));
  const after = await eventually(() => c.api(`${rq}/${rid}`, { token: p.token }), (x) => x.body.status !== 'CART_PREP');
  console.log(JSON.stringify(after.body));
  const m2 = await c.api(`/api/v1/households/${hid}/orchestrator/missions/${m.body.mission_id}/chat`, { method: 'POST', token: p.token, body: { message: `try ${rid} again` } });
  console.log(m2.status, JSON.stringify(m2.body.history.at(-1)));
  // STYLE with no data / wardrobe down
  await stack.stop('commerce');
  const s = await c.api(`/api/v1/households/${hid}/orchestrator/missions`, { method: 'POST', token: p.token, body: { mission_type: 'STYLE', initial_message: 'a red dress under $50' } });
  console.log(s.status, JSON.stringify(s.body.history.at(-1)));
  // chat streaming
  const st = openMissionStream(`${c.baseUrl}/api/v1/households/${hid}/orchestrator/missions/${s.body.mission_id}/stream`, p.token);
  await st.waitFor((es) => es.some((e) => e.type === 'turn.completed'));
  console.log(st.events.map((e) => e.type).join(','));
  st.close();
  // feed with commerce down
  const f = await c.api(`/api/v1/households/${hid}/wardrobe/feed`, { token: p.token });
  console.log(f.status, JSON.stringify(f.body));
  const cancel = await c.api(`/api/v1/households/${hid}/orchestrator/missions/${s.body.mission_id}/cancel`, { method: 'POST', token: p.token });
  console.log(cancel.status, cancel.body.state);
  const arts = await eventually(() => c.api(`/api/v1/households/${hid}/missions/${s.body.mission_id}/artifacts`, { token: p.token }), (x) => x.body.length >= 3);
  console.log(JSON.stringify(arts.body.map((a: Json) => [a.type, a.data.finalState, a.data.hasVoice])));
  const logs = await c.api(`/api/v1/households/${hid}/audit-logs?limit=50`, { token: p.token });
  console.log(JSON.stringify(logs.body.map((e: Json) => e.action)));
  expect(1).toBe(1);
});
