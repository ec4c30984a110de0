import { createStore, type Store } from '@hs/store';
import { createMemoryBlobStorage } from '@hs/testing';
import type { MissionDirectory } from '../src/adapters/mission-directory.ts';
import { buildApp } from '../src/app.ts';
import { loadArtifactsAuditConfig } from '../src/config.ts';

export const TOKEN = 'test-artifacts-audit-token';
export const internal = { 'x-internal-token': TOKEN };

/** Every mission exists in every household and the caller may read it (tests about other rules). */
const everyMissionReadable: MissionDirectory = { visibility: async () => 'readable' };

/**
 * The service on the in-memory store and a fake blob storage; clock injectable for signed links.
 * With `orchestratorUrl` missions are looked up there (a fake peer), otherwise every one exists.
 */
export async function buildTestApp(
  options: { store?: Store; now?: () => number; orchestratorUrl?: string } = {},
) {
  const config = loadArtifactsAuditConfig({
    APP_ENV: 'test',
    ARTIFACTS_AUDIT_INTERNAL_TOKEN: TOKEN,
    ...(options.orchestratorUrl ? { ORCHESTRATOR_BASE_URL: options.orchestratorUrl } : {}),
  });
  const store = options.store ?? createStore({ backend: 'inmemory' });
  const blobs = createMemoryBlobStorage();
  const app = await buildApp({
    config,
    store,
    storage: blobs,
    ...(options.orchestratorUrl ? {} : { missions: everyMissionReadable }),
    ...(options.now ? { now: options.now } : {}),
  });
  await app.ready();
  return { app, store, blobs };
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>['app'];
