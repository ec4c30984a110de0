import { createStore, type Store } from '@hs/store';
import { createMemoryBlobStorage, type FakePeer, startFakePeer } from '@hs/testing';
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

/** A mission the fake orchestrator knows: its household, owner and type. */
export type FakeMission = { household: string; owner: string; type?: string };

/**
 * The orchestrator's `GET .../orchestrator/missions/{mId}/access` as artifacts-audit asks it: 404 for a
 * mission that is missing or another household's, 403 unless the caller may follow it (its owner,
 * any member for a POLL mission), else the mission.
 */
export async function startFakeOrchestrator(missions: Record<string, FakeMission>): Promise<FakePeer> {
  const peer: FakePeer = await startFakePeer((call) => {
    const [, householdId, missionId] =
      call.url.match(/^\/api\/v1\/households\/([^/]+)\/orchestrator\/missions\/([^/?]+)\/access$/) ?? [];
    const mission = missionId ? missions[missionId] : undefined;
    if (!mission || mission.household !== householdId)
      return { status: 404, body: { error: 'NOT_FOUND', message: 'Mission not found' } };
    const type = mission.type ?? 'STYLE';
    // The headers of the call being answered (the peer records them before asking the handler).
    const userId = peer.headers.at(-1)?.['x-user-id'];
    if (userId !== mission.owner && type !== 'POLL')
      return { status: 403, body: { error: 'FORBIDDEN', message: 'Only the mission owner may follow it' } };
    return {
      status: 200,
      body: {
        mission_id: missionId,
        household_id: householdId,
        owner_id: mission.owner,
        mission_type: type,
        state: 'RUNNING',
      },
    };
  });
  return peer;
}
