import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBlobStorageFromSettings } from '@hs/storage';
import { createStore } from '@hs/store';
import { afterAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadArtifactsAuditConfig } from '../src/config.ts';
import { internal, TOKEN } from './harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'artifacts-local-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('writes artifact data through the real local blob storage and serves a recording through its signed link', async () => {
  const config = loadArtifactsAuditConfig({
    APP_ENV: 'test',
    ARTIFACTS_AUDIT_INTERNAL_TOKEN: TOKEN,
    ARTIFACT_LOCAL_DIR: dir,
  });
  const storage = createBlobStorageFromSettings(config.storage, { publicBaseUrl: 'http://127.0.0.1:9' });
  const app = await buildApp({ config, store: createStore({ backend: 'inmemory' }), storage });
  const plan = await app.inject({
    method: 'POST',
    url: '/api/v1/households/h_1/artifacts/mission-plan',
    headers: internal,
    payload: { missionId: 'msn_1', missionType: 'POLL', goal: 'Pick a jacket' },
  });
  expect(plan.statusCode).toBe(201);
  expect(JSON.parse(readFileSync(join(dir, plan.json().storagePath), 'utf8'))).toEqual(plan.json().data);

  const rec = await app.inject({
    method: 'POST',
    url: '/api/v1/households/h_1/artifacts/recording',
    headers: internal,
    payload: {
      missionId: 'msn_1',
      sessionId: 'bs_1',
      durationSeconds: 3,
      storagePath: 'households/h_1/recordings/bs_1.webm',
    },
  });
  await storage.put('households/h_1/recordings/bs_1.webm', new TextEncoder().encode('webm'), 'video/webm');
  const content = await app.inject({ method: 'GET', url: rec.json().data.signedUrl });
  expect(content.statusCode).toBe(200);
  expect(content.body).toBe('webm');
  await app.close();
});
