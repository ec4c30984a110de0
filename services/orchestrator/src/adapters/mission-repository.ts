import { ABORT, type CollectionOptions, type Store } from '@hs/store';
import type { MissionDoc } from '../domain/mission.ts';

/**
 * `listForOwner`: one owner's missions of a household; `listOpenPolls`: its running POLLs; newest
 * first. `withExpiredLease`: turn leases by when they run out. `withEndPending`: ended missions whose
 * end's follow-up is still owed, least recently updated first.
 */
export const MISSION_COLLECTIONS = {
  missions: {
    indexes: [
      { fields: ['household_id', 'owner_id', 'created_at'] },
      { fields: ['household_id', 'mission_type', 'state', 'created_at'] },
      { fields: ['turn_lease.expires_at'] },
      // Sparse: only an ended mission whose follow-up is not yet queued carries the mark.
      { fields: ['end_pending', 'updated_at'], sparse: true },
    ],
  },
} satisfies Record<string, CollectionOptions>;

/** Missions in the store; a mission of another household is treated as missing. */
export function createMissionRepository(store: Store) {
  const missions = store.collection<MissionDoc>('missions', MISSION_COLLECTIONS.missions);
  return {
    create: (doc: MissionDoc) => missions.create(doc.mission_id, doc),
    async get(householdId: string, missionId: string): Promise<MissionDoc | null> {
      const doc = await missions.get(missionId);
      return doc && doc.household_id === householdId ? doc : null;
    },
    /** For internal callers that know only the mission id (the browser bridge). */
    getById: (missionId: string) => missions.get(missionId),
    async listForOwner(householdId: string, ownerId: string, limit = 100): Promise<MissionDoc[]> {
      const page = await missions.query({
        where: [
          ['household_id', '==', householdId],
          ['owner_id', '==', ownerId],
        ],
        orderBy: [{ field: 'created_at', direction: 'desc' }],
        limit,
      });
      return page.items;
    },
    /** The household's running POLL missions, whoever started them (voters find them here). */
    async listOpenPolls(householdId: string, limit = 100): Promise<MissionDoc[]> {
      const page = await missions.query({
        where: [
          ['household_id', '==', householdId],
          ['mission_type', '==', 'POLL'],
          ['state', '==', 'RUNNING'],
        ],
        orderBy: [{ field: 'created_at', direction: 'desc' }],
        limit,
      });
      return page.items;
    },
    /** Missions whose turn lease ran out by `now` (its turn's process died), oldest first. */
    async withExpiredLease(now: number, limit: number): Promise<MissionDoc[]> {
      const page = await missions.query({
        where: [['turn_lease.expires_at', '<=', now]],
        orderBy: [{ field: 'turn_lease.expires_at' }],
        limit,
      });
      return page.items;
    },
    /** Ended missions still marked `end_pending`, last updated at or before `updatedBy` (ISO), oldest first. */
    async withEndPending(updatedBy: string, limit: number): Promise<MissionDoc[]> {
      const page = await missions.query({
        where: [
          ['end_pending', '==', true],
          ['updated_at', '<=', updatedBy],
        ],
        orderBy: [{ field: 'updated_at' }],
        limit,
      });
      return page.items;
    },
    /** Atomic change of one mission; `mutate` must be pure and return ABORT to change nothing. */
    update(missionId: string, mutate: (doc: MissionDoc) => MissionDoc | typeof ABORT) {
      return missions.update(missionId, (doc) => (doc ? mutate(doc) : ABORT));
    },
  };
}

export type MissionRepository = ReturnType<typeof createMissionRepository>;
