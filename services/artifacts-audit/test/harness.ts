import { createStore, type Store } from '@hs/store';
import { createMemoryBlobStorage } from '@hs/testing';
import { buildApp } from '../src/app.ts';
import { loadArtifactsAuditConfig } from '../src/config.ts';

export const TOKEN = 'test-artifacts-audit-token';
export const internal = { 'x-internal-token': TOKEN };

/** The service on the in-memory store and a fake blob storage; clock injectable for signed links. */
export async function buildTestApp(options: { store?: Store; now?: () => number } = {}) {
  const config = loadArtifactsAuditConfig({ APP_ENV: 'test', ARTIFACTS_AUDIT_INTERNAL_TOKEN: TOKEN });
  const store = options.store ?? createStore({ backend: 'inmemory' });
  const blobs = createMemoryBlobStorage();
  const app = await buildApp({
    config,
    store,
    storage: blobs,
    ...(options.now ? { now: options.now } : {}),
  });
  await app.ready();
  return { app, store, blobs };
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>['app'];
