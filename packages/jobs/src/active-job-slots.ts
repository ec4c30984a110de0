// The household's and the starter's bounds on active jobs (household-queue-limit.ts,
// user-queue-limit.ts) held under a burst: counted from the jobs, then created, two requests in
// flight both passed the count (20 try-ons accepted at a bound of 5). Here each create holds a
// place of both, named by its job id, taken atomically, and the job gives them back when it
// stops being active. Places named by job id make every step safe to repeat: a retry of the same
// job (a lost answer, a store timeout whose outcome is unknown, a keyed retry racing its first
// attempt) finds its place already held instead of being refused, and giving back twice (a
// transaction the store ran again after it landed, two workers finishing one job) is harmless.
import { createHash } from 'node:crypto';
import type { AppError } from '@hs/service-kit';
import {
  ABORT,
  type Collection,
  inTurnPerKey,
  isValidDocId,
  queryAll,
  type Store,
  StoreConflictError,
  StoreUnavailableError,
} from '@hs/store';
import { householdQueueFull } from './household-queue-limit.ts';
import { userQueueFull } from './user-queue-limit.ts';

/** What a create may hold: the household's bound and the starter's, across their households. */
export type ActiveJobBounds = { household: number; user: number };

/** Why a create was refused: the household's bound (checked first) or the starter's. */
export type CreateOutcome = 'created' | 'household-full' | 'user-full';

type Job = { jobId: string; householdId: string; status: string };

/** Queued or running: what the bounds count. */
export const isActiveJob = (job: { status: string } | null | undefined): boolean =>
  job?.status === 'QUEUED' || job?.status === 'RUNNING';

/** The 429 for a refused create (null when it was created); `jobs` names them in the message. */
export function refusal(outcome: CreateOutcome, bounds: ActiveJobBounds, jobs: string): AppError | null {
  if (outcome === 'household-full') return householdQueueFull(bounds.household, jobs);
  if (outcome === 'user-full') return userQueueFull(bounds.user, jobs);
  return null;
}

/**
 * How long a place may be held by a job not (yet) found active before a recount may free it:
 * longer than any create takes, so places of creates still under way are never taken for leaks.
 */
const SETTLED_MS = 30_000;
/** How often one process recounts one owner found full. */
const RECOUNT_EVERY_MS = 5_000;
const RECOUNTS_KEPT = 10_000;

/** One owner's places: job id → when it was taken (0: found active when the places were first counted). */
type Places = { owner: string; held: Record<string, number> };

/** A document id for an owner: the id itself when every store accepts it. */
const placesKey = (id: string) =>
  isValidDocId(id) ? id : `sha256_${createHash('sha256').update(id).digest('hex')}`;

/**
 * The places of one kind of owner (households, or starters) in `collection`. The first time an
 * owner is counted, its jobs already active take places. An owner found full is recounted (at
 * most every RECOUNT_EVERY_MS per process): places whose job is not active and that were taken
 * more than SETTLED_MS ago are freed (a create that never landed, a give lost to a crash).
 */
function jobPlaces(
  store: Store,
  collection: string,
  activeIds: (owner: string) => Promise<string[]>,
  isActive: (jobId: string) => Promise<boolean>,
) {
  const docs = store.collection<Places>(collection);
  const recountedAt = new Map<string, number>();
  // One owner's places change one at a time in this process (a burst would contend for them).
  const inTurn = inTurnPerKey();

  const held = async (owner: string, jobId: string, cap: number, seed: string[] | null) => {
    const { doc } = await docs.update(placesKey(owner), (current) => {
      const places = { ...(current?.held ?? Object.fromEntries((seed ?? []).map((id) => [id, 0]))) };
      if (places[jobId] === undefined && Object.keys(places).length < cap) places[jobId] = Date.now();
      else if (current) return ABORT;
      return { owner, held: places };
    });
    return doc?.held[jobId] !== undefined;
  };

  async function recount(owner: string): Promise<boolean> {
    const last = recountedAt.get(owner);
    if (last !== undefined && Date.now() - last < RECOUNT_EVERY_MS) return false;
    recountedAt.delete(owner);
    recountedAt.set(owner, Date.now());
    if (recountedAt.size > RECOUNTS_KEPT) recountedAt.delete(recountedAt.keys().next().value!);
    const active = new Set(await activeIds(owner));
    const settledAt = Date.now() - SETTLED_MS;
    const before = (await docs.get(placesKey(owner)))?.held ?? {};
    // A job the queries missed while it moved between QUEUED and RUNNING is asked for by itself.
    for (const [id, at] of Object.entries(before))
      if (!active.has(id) && at <= settledAt && (await isActive(id))) active.add(id);
    const { changed } = await docs.update(placesKey(owner), (current) => {
      if (!current) return ABORT;
      const now = Date.now();
      const kept = Object.entries(current.held).filter(
        ([id, at]) => active.has(id) || now - at < SETTLED_MS || before[id] === undefined,
      );
      if (kept.length === Object.keys(current.held).length) return ABORT;
      return { ...current, held: Object.fromEntries(kept) };
    });
    return changed;
  }

  return {
    /** True when `jobId` holds a place of `owner` (taken now or before); false when all `cap` are held. */
    take: (owner: string, jobId: string, cap: number): Promise<boolean> =>
      inTurn(owner, async () => {
        const seed = (await docs.get(placesKey(owner))) ? null : await activeIds(owner);
        if (await held(owner, jobId, cap, seed)) return true;
        return (await recount(owner)) && held(owner, jobId, cap, null);
      }),
    /** Frees `jobId`'s place (nothing when it holds none). Never throws: a recount heals a lost give. */
    give: (owner: string, jobId: string): Promise<void> =>
      inTurn(owner, () =>
        docs
          .update(placesKey(owner), (current) => {
            if (current?.held[jobId] === undefined) return ABORT;
            const { [jobId]: _freed, ...rest } = current.held;
            return { ...current, held: rest };
          })
          .then(
            () => undefined,
            () => undefined,
          ),
      ),
  };
}

/**
 * The active jobs of each household and of each starter (`starterField`: the user who started
 * the job; a job without one takes only the household's place), held in the collections
 * `places.household` and `places.starter`.
 */
export function createActiveJobSlots<J extends Job>(
  store: Store,
  jobs: Collection<J>,
  places: { household: string; starter: string; starterField: keyof J & string },
) {
  const { starterField } = places;
  const activeIds = (field: string) => async (value: string) => {
    const found = await Promise.all(
      (['QUEUED', 'RUNNING'] as const).map((status) =>
        queryAll(jobs, {
          where: [
            [field, '==', value],
            ['status', '==', status],
          ],
        }),
      ),
    );
    return found.flat().map((job) => job.jobId);
  };
  const isActive = async (jobId: string) => isActiveJob(await jobs.get(jobId));
  const households = jobPlaces(store, places.household, activeIds('householdId'), isActive);
  const starters = jobPlaces(store, places.starter, activeIds(starterField), isActive);
  const starterOf = (job: J) => (job[starterField] as string | null | undefined) || null;
  /** Frees the places a job held (safe to repeat). */
  const release = async (job: J): Promise<void> => {
    const starter = starterOf(job);
    await Promise.all([
      households.give(job.householdId, job.jobId),
      starter ? starters.give(starter, job.jobId) : undefined,
    ]);
  };

  return {
    /**
     * Runs `insert` with places of the job's household (`bounds.household`) and of its starter
     * (`bounds.user`) held under its id; when either is full nothing runs. An insert that fails
     * frees them, unless its outcome is unknown or the job exists already (a conflict): then the
     * job (or its retry, which finds them held) keeps them.
     */
    async create(job: J, bounds: ActiveJobBounds, insert: () => Promise<unknown>): Promise<CreateOutcome> {
      const starter = starterOf(job);
      if (!(await households.take(job.householdId, job.jobId, bounds.household))) return 'household-full';
      let taken = true;
      try {
        if (starter) taken = await starters.take(starter, job.jobId, bounds.user);
      } catch (err) {
        // Nothing was inserted: the household's place goes back whatever the starter's failure was.
        await households.give(job.householdId, job.jobId);
        throw err;
      }
      if (!taken) {
        await households.give(job.householdId, job.jobId);
        return 'user-full';
      }
      try {
        await insert();
      } catch (err) {
        if (err instanceof StoreUnavailableError && err.outcomeUnknown) throw err;
        // The same id saved first keeps these places only when it is this very job, still active.
        const first = err instanceof StoreConflictError ? await jobs.get(job.jobId).catch(() => null) : null;
        const same =
          first &&
          isActiveJob(first) &&
          first.householdId === job.householdId &&
          starterOf(first) === starterOf(job);
        if (!same) await release(job);
        throw err;
      }
      return 'created';
    },

    release,

    /**
     * Applies a pure change to a job atomically (null from `change` leaves it as it is) and
     * answers the changed job, or null when nothing changed. A job that stops being active here
     * (succeeded, failed, timed out, abandoned) frees its places: every state change of a job
     * goes through this, so no path keeps them.
     */
    async change(jobId: string, change: (job: J | null) => J | null): Promise<J | null> {
      // The store may run `change` more than once (Firestore retries, even after it landed): the
      // last run then finds the job already finished, and its places are freed all the same.
      let seenActive = false;
      const result = await jobs.update(jobId, (current) => {
        seenActive ||= isActiveJob(current);
        return change(current) ?? ABORT;
      });
      if (seenActive && result.doc && !isActiveJob(result.doc)) await release(result.doc);
      return result.changed ? result.doc : null;
    },
  };
}
