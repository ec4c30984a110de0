// The household's and the starter's bounds on active jobs (household-queue-limit.ts,
// user-queue-limit.ts) held under a burst: counted from the jobs, then created, two requests in
// flight both passed the count (20 try-ons accepted at a bound of 5). Here each create takes a
// slot of both atomically (the store's slot counters), and a job gives them back when it stops
// being active.
import { createHash } from 'node:crypto';
import type { AppError } from '@hs/service-kit';
import { createSlotCounter, isValidDocId, type Store } from '@hs/store';
import { activeJobCount, type CountsJobs, householdQueueFull } from './household-queue-limit.ts';
import { activeJobCountOfUser, userQueueFull } from './user-queue-limit.ts';

/** What a create may hold: the household's bound and the starter's, across their households. */
export type ActiveJobBounds = { household: number; user: number };

/** Why a create was refused: the household's bound (checked first) or the starter's. */
export type CreateOutcome = 'created' | 'household-full' | 'user-full';

type Job = { householdId: string; status: string };

/** Queued or running: what the bounds count. */
export const isActiveJob = (job: Job | null | undefined): boolean =>
  job?.status === 'QUEUED' || job?.status === 'RUNNING';

/** A counter's document id for an owner: the id itself when every store accepts it. */
const slotKey = (id: string) =>
  isValidDocId(id) ? id : `sha256_${createHash('sha256').update(id).digest('hex')}`;

/** A create refused by the starter's bound, thrown so that the household's slot goes back. */
class StarterFull extends Error {}

/** The 429 for a refused create (null when it was created); `jobs` names them in the message. */
export function refusal(outcome: CreateOutcome, bounds: ActiveJobBounds, jobs: string): AppError | null {
  if (outcome === 'household-full') return householdQueueFull(bounds.household, jobs);
  if (outcome === 'user-full') return userQueueFull(bounds.user, jobs);
  return null;
}

/**
 * The active jobs of each household and of each starter (`starterField`: the user who started
 * the job; a job without one takes only the household's slot), counted in the collections
 * `counts.household` and `counts.starter`. A count found at its bound is recounted from the jobs
 * (`jobs`), so drift heals (see the store's slot counter).
 */
export function createActiveJobSlots<J extends Job>(
  store: Store,
  jobs: CountsJobs,
  counts: { household: string; starter: string; starterField: keyof J & string },
) {
  const { starterField } = counts;
  const householdSlots = createSlotCounter(store, counts.household, 'active');
  const starterSlots = createSlotCounter(store, counts.starter, 'active');
  const starterOf = (job: J) => (job[starterField] as string | null | undefined) || null;

  return {
    /**
     * Runs `insert` in a slot of the job's household (`bounds.household`) and one of its
     * starter's (`bounds.user`), taken atomically; when either is full nothing runs. A failed
     * insert gives its slots back (unless its outcome is unknown): a conflict (the same id saved
     * first) too.
     */
    async create(job: J, bounds: ActiveJobBounds, insert: () => Promise<unknown>): Promise<CreateOutcome> {
      const starter = starterOf(job);
      const withinStarter = starter
        ? async () => {
            const taken = await starterSlots.createWithin(
              slotKey(starter),
              bounds.user,
              () => activeJobCountOfUser(jobs, starterField, starter),
              insert,
            );
            if (!taken) throw new StarterFull();
          }
        : insert;
      try {
        const taken = await householdSlots.createWithin(
          slotKey(job.householdId),
          bounds.household,
          () => activeJobCount(jobs, job.householdId),
          withinStarter,
        );
        return taken ? 'created' : 'household-full';
      } catch (err) {
        if (err instanceof StarterFull) return 'user-full';
        throw err;
      }
    },

    /** After an atomic change of a job: one that stopped being active gives its slots back. */
    async settled(wasActive: boolean, job: J | null): Promise<void> {
      if (!wasActive || !job || isActiveJob(job)) return;
      const starter = starterOf(job);
      await Promise.all([
        householdSlots.give(slotKey(job.householdId), 1),
        starter ? starterSlots.give(slotKey(starter), 1) : undefined,
      ]);
    },
  };
}
