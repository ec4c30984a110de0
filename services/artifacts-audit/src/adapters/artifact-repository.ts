// Artifacts: metadata and data in the service's store, the data JSON also in blob storage
// (ARTIFACT_STORAGE_BACKEND) at the artifact's storagePath. A large artifact (an AuditLog
// export) keeps only a summary in the store: its blob alone holds the data, read by `get`.
import type { Artifact, ArtifactType } from '@hs/contracts';
import { AppError, conflict, newId, nowIso, upstreamError } from '@hs/service-kit';
import type { BlobStorage } from '@hs/storage';
import {
  type CollectionOptions,
  createSlotCounter,
  type Doc,
  queryAll,
  type Store,
  StoreConflictError,
  type Where,
} from '@hs/store';
import { dataPathOf, uniqueKeyOf } from '../domain/artifact-keys.ts';

export const ARTIFACTS = 'artifacts';

export type NewArtifact = {
  householdId: string;
  missionId: string;
  type: ArtifactType;
  data: Record<string, unknown>;
  /** Only for BrowserRecording: the session the recording is unique for. */
  sessionId?: string;
  /**
   * The writing service's own key for this artifact (its Idempotency-Key). A retry with the same
   * key gets the stored artifact back; another writer's artifact under the same uniqueness key
   * is still a 409, so a writer learns that what is stored is not its own.
   */
  writerKey?: string;
  /**
   * What the store record keeps instead of `data` when the blob alone should hold it whole:
   * lists show this summary, `get` reads the data from the blob.
   */
  summary?: Record<string, unknown>;
  /** A member's plan for a mission that does not exist (yet): counted against MAX_PLANS_AHEAD_PER_HOUSEHOLD. */
  plannedAhead?: boolean;
};

/**
 * Plans a household may hold for missions that do not exist: a plan for a mission to come costs
 * nothing but storage, so without a bound one member could fill it with made-up mission ids.
 */
export const MAX_PLANS_AHEAD_PER_HOUSEHOLD = 200;

export type CreateResult = { artifact: Artifact; created: boolean };
type StoredArtifact = Artifact & { writerKey?: string | null; dataInBlob?: boolean; plannedAhead?: boolean };

/** The stored record without the writer's key and the markers, which are not part of the resource. */
const publicOf = ({
  writerKey: _key,
  dataInBlob: _inBlob,
  plannedAhead: _ahead,
  ...artifact
}: StoredArtifact): Artifact => artifact as Artifact;

const duplicateMessage = (a: NewArtifact) =>
  a.type === 'BrowserRecording'
    ? `A BrowserRecording already exists for session ${a.sessionId}`
    : `An artifact of type ${a.type} already exists for mission ${a.missionId}`;

/** `get` by artifactId and `listForMission` (optionally by type), oldest first. */
export const ARTIFACT_COLLECTIONS = {
  [ARTIFACTS]: {
    indexes: [
      { fields: ['artifactId'] },
      { fields: ['householdId', 'missionId', 'createdAt'] },
      { fields: ['householdId', 'missionId', 'type', 'createdAt'] },
      // Counting a household's plans for missions to come (a recount at the cap); few rows have it.
      { fields: ['householdId', 'plannedAhead'], sparse: true },
    ],
  },
} satisfies Record<string, CollectionOptions>;

export function createArtifactRepository(store: Store, storage: BlobStorage) {
  const artifacts = store.collection<StoredArtifact & Doc>(ARTIFACTS, ARTIFACT_COLLECTIONS[ARTIFACTS]);
  const plansAhead = createSlotCounter(store, 'artifact_counts', 'plansAhead');

  const content = async (key: string) => {
    try {
      return await storage.get(key);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw upstreamError('Artifact storage is unavailable', err);
    }
  };

  /**
   * Blob first, then the store record whose id is the uniqueness key: the record is what makes
   * an artifact exist, so a failed blob write leaves nothing behind, and a writer that loses
   * the race removes its own blob (paths are per artifact, the winner's is untouched).
   */
  async function createOne(input: NewArtifact): Promise<CreateResult> {
    const artifactId = newId('art');
    const key = uniqueKeyOf(input.householdId, input.missionId, input.type, artifactId, input.sessionId);
    const replay = (stored: StoredArtifact | null): CreateResult => {
      if (!stored) throw conflict(duplicateMessage(input));
      if (!input.writerKey || stored.writerKey !== input.writerKey) throw conflict(duplicateMessage(input));
      return { artifact: publicOf(stored), created: false };
    };
    const existing = await artifacts.get(key);
    if (existing) return replay(existing);
    const storagePath = dataPathOf(input.householdId, input.missionId, input.type, artifactId);
    const artifact = {
      artifactId,
      householdId: input.householdId,
      missionId: input.missionId,
      type: input.type,
      data: input.data,
      storagePath,
      createdAt: nowIso(),
    } as Artifact;
    try {
      await storage.put(
        storagePath,
        new TextEncoder().encode(JSON.stringify(input.data)),
        'application/json',
      );
    } catch (err) {
      // A full or unwritable local disk already says so (503 SERVICE_UNAVAILABLE naming it).
      if (err instanceof AppError) throw err;
      throw upstreamError('Artifact storage is unavailable', err);
    }
    try {
      await artifacts.create(key, {
        ...artifact,
        writerKey: input.writerKey ?? null,
        ...(input.summary ? { data: input.summary, dataInBlob: true } : {}),
        ...(input.plannedAhead ? { plannedAhead: true } : {}),
      } as StoredArtifact);
    } catch (err) {
      await storage.delete(storagePath).catch(() => {});
      if (err instanceof StoreConflictError) return replay(await artifacts.get(key));
      throw err;
    }
    return { artifact, created: true };
  }

  return {
    /**
     * A plan for a mission to come takes a slot of the household's MAX_PLANS_AHEAD_PER_HOUSEHOLD
     * first (409 CONFLICT past it); a create that fails gives it back.
     */
    async create(input: NewArtifact): Promise<CreateResult> {
      if (!input.plannedAhead) return createOne(input);
      let result: CreateResult | undefined;
      const taken = await plansAhead.createWithin(
        input.householdId,
        MAX_PLANS_AHEAD_PER_HOUSEHOLD,
        () =>
          artifacts.count([
            ['householdId', '==', input.householdId],
            ['plannedAhead', '==', true],
          ]),
        async () => {
          result = await createOne(input);
        },
      );
      if (!taken || !result)
        throw conflict(
          `This household already holds ${MAX_PLANS_AHEAD_PER_HOUSEHOLD} plans for missions that do not exist; plan a running mission instead`,
        );
      return result;
    },

    /** Null when missing or another household's (callers answer 404 for both). The data whole. */
    async get(householdId: string, artifactId: string): Promise<Artifact | null> {
      const page = await artifacts.query({ where: [['artifactId', '==', artifactId]], limit: 1 });
      const found = page.items[0];
      if (!found || found.householdId !== householdId) return null;
      if (!found.dataInBlob) return publicOf(found);
      const blob = await content(found.storagePath);
      if (!blob) throw upstreamError('Artifact data is missing from storage');
      return { ...publicOf(found), data: JSON.parse(new TextDecoder().decode(blob.bytes)) } as Artifact;
    },

    /** The newest artifact of a type for a mission, with the data as the store keeps it (a summary for some). */
    async latest(householdId: string, missionId: string, type: ArtifactType): Promise<Artifact | null> {
      const page = await artifacts.query({
        where: [
          ['householdId', '==', householdId],
          ['missionId', '==', missionId],
          ['type', '==', type],
        ],
        orderBy: [{ field: 'createdAt', direction: 'desc' }],
        limit: 1,
      });
      return page.items[0] ? publicOf(page.items[0]) : null;
    },

    /** A mission's artifacts, oldest first, each with the data the store keeps (a summary for some). */
    async listForMission(householdId: string, missionId: string, type?: ArtifactType): Promise<Artifact[]> {
      const where: Where[] = [
        ['householdId', '==', householdId],
        ['missionId', '==', missionId],
      ];
      if (type) where.push(['type', '==', type]);
      return (await queryAll(artifacts, { where, orderBy: [{ field: 'createdAt' }] })).map(publicOf);
    },

    /** The bytes behind a storage key, or null. */
    content,
  };
}

export type ArtifactRepository = ReturnType<typeof createArtifactRepository>;
