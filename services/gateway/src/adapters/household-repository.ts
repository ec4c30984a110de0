import type { CollectionOptions, Store } from '@hs/store';
import { ABORT, createSlotCounter, inTurnPerKey, queryAll, StoreUnavailableError } from '@hs/store';
import {
  createdBy,
  MAX_HOUSEHOLDS_CREATED_PER_USER,
  MAX_HOUSEHOLDS_PER_USER,
  type StoredHousehold,
} from '../domain/household-rules.ts';
import { createRecentCache } from './recent-cache.ts';

/**
 * Membership and roles a gateway may serve from memory (decisions: at most 2 s across replicas);
 * a change made through this gateway replaces its copy at once.
 */
export const MEMBERSHIP_CACHE_MS = 2000;
const MEMBERSHIP_CACHE_ENTRIES = 10_000;

/** `listFor`: memberIds array-contains, ordered by createdAt. */
export const HOUSEHOLD_COLLECTIONS = {
  households: { indexes: [{ fields: ['memberIds', 'createdAt'] }], arrayFields: ['memberIds'] },
} satisfies Record<string, CollectionOptions>;

/**
 * Per user, the count of live households they created and of those they belong to (slot
 * counters), one document each: a burst of creates changes both, and two documents halve the
 * contention on either.
 */
const CREATED_HOUSEHOLD_COUNTS = 'user_created_household_counts';
const MEMBER_HOUSEHOLD_COUNTS = 'user_member_household_counts';

/** Why `create` made nothing: a cap of the creator's (already full). */
export type CreateRefusal = 'created-cap' | 'member-cap';

const MEMBER_CAP = Symbol('member cap');

/**
 * A failure of the work run before the household's write: the household was never written, so
 * the slots go back even when that failure's own outcome is unknown (a limiter's 503), which the
 * counter would otherwise keep in case the write lands.
 */
class NotWritten extends Error {
  readonly reason: unknown;
  constructor(reason: unknown) {
    super('not written');
    this.reason = reason;
  }
}

/**
 * Households in the gateway's store; every change goes through an atomic update. Each user's
 * caps (MAX_HOUSEHOLDS_CREATED_PER_USER live households they created, MAX_HOUSEHOLDS_PER_USER
 * they belong to) are slot counts taken atomically before the write that would pass them, so
 * concurrent creates and joins cannot pass a cap together. A change that takes members out gives
 * their slots back; a count that drifted (a give lost to a crash) is recounted from the
 * households themselves when the user is found at the cap.
 */
export function createHouseholdRepository(store: Store) {
  const households = store.collection<StoredHousehold>('households', HOUSEHOLD_COLLECTIONS.households);
  const createdSlots = createSlotCounter(store, CREATED_HOUSEHOLD_COUNTS, 'created');
  const memberSlots = createSlotCounter(store, MEMBER_HOUSEHOLD_COUNTS, 'member');
  const allFor = (userId: string) =>
    queryAll(households, {
      where: [['memberIds', 'array-contains', userId]],
      orderBy: [{ field: 'createdAt' }],
    });
  const countCreated = async (userId: string) =>
    (await allFor(userId)).filter((h) => createdBy(h, userId)).length;
  const countMember = async (userId: string) => (await allFor(userId)).length;
  const inTurn = inTurnPerKey();
  const recent = createRecentCache<StoredHousehold>(MEMBERSHIP_CACHE_ENTRIES);
  const remember = (h: StoredHousehold) => recent.set(h.householdId, h, Date.now() + MEMBERSHIP_CACHE_MS);
  const listeners: Array<(id: string, household: StoredHousehold | null) => void> = [];
  return {
    /** Called after every change made through this gateway, with the household as it now is. */
    onChange(listener: (id: string, household: StoredHousehold | null) => void): void {
      listeners.push(listener);
    },
    get: (id: string) => households.get(id),
    /** For access checks: may be up to MEMBERSHIP_CACHE_MS old unless changed through this gateway. */
    async getRecent(id: string): Promise<StoredHousehold | null> {
      const cached = recent.get(id);
      if (cached) return cached;
      const household = await households.get(id);
      if (household) remember(household);
      return household;
    },
    /** Read from the store now (the access watch's sweep), and kept for access checks. */
    async refresh(id: string): Promise<StoredHousehold | null> {
      const household = await households.get(id);
      if (household) remember(household);
      else recent.delete(id);
      return household;
    },
    /**
     * Stores the new household within its creator's caps (`h.members[0]`), after `beforeWrite`
     * (run with the slots taken: its failure gives them back); a refusal when a cap is full.
     */
    async create(
      h: StoredHousehold,
      beforeWrite: () => Promise<void> = async () => {},
    ): Promise<CreateRefusal | null> {
      const creatorId = h.members[0]!.memberId;
      return inTurn(creatorId, () => createInTurn(h, creatorId, beforeWrite));
    },
    /**
     * The households the user belongs to, oldest first: at most MAX_HOUSEHOLDS_PER_USER, the
     * most the household and member routes let a user join, read in one query.
     */
    async listFor(userId: string): Promise<StoredHousehold[]> {
      const page = await households.query({
        where: [['memberIds', 'array-contains', userId]],
        orderBy: [{ field: 'createdAt' }],
        limit: MAX_HOUSEHOLDS_PER_USER,
      });
      return page.items;
    },
    /**
     * Applies a pure change; the change may throw an AppError, which leaves the household as it was.
     * Members it takes out get their slots back (and their creator's slot, from the household they
     * created).
     */
    change,
    /**
     * `change` adding `userId` as a member, within their MAX_HOUSEHOLDS_PER_USER: 'full' (nothing
     * changed) when they belong to that many already. The slot is taken first and given back
     * unless the change added them.
     */
    async changeJoining(
      id: string,
      userId: string,
      apply: (h: StoredHousehold) => StoredHousehold,
    ): Promise<StoredHousehold | null | 'full'> {
      return inTurn(userId, async () => {
        if (!(await memberSlots.take(userId, 1, MAX_HOUSEHOLDS_PER_USER, () => countMember(userId))))
          return 'full';
        let updated: StoredHousehold | null;
        try {
          updated = await change(id, apply);
        } catch (err) {
          if (!(err instanceof StoreUnavailableError && err.outcomeUnknown))
            await memberSlots.give(userId, 1);
          throw err;
        }
        if (!updated?.memberIds.includes(userId)) await memberSlots.give(userId, 1);
        return updated;
      });
    },
  };

  async function change(
    id: string,
    apply: (h: StoredHousehold) => StoredHousehold,
  ): Promise<StoredHousehold | null> {
    let failure: unknown;
    let before = null as StoredHousehold | null;
    const result = await households.update(id, (current) => {
      before = current;
      if (!current) return ABORT;
      try {
        failure = undefined;
        return apply(current);
      } catch (err) {
        failure = err;
        return ABORT;
      }
    });
    // Whatever happened, the next access check reads the store again.
    recent.delete(id);
    if (failure) throw failure;
    if (result.doc) remember(result.doc);
    if (result.changed) {
      // Those watching access first (a removed member's streams end now), then the counts.
      for (const listener of listeners) listener(id, result.doc);
      await giveBackLeft(before, result.doc);
    }
    return result.doc;
  }

  async function createInTurn(
    h: StoredHousehold,
    creatorId: string,
    beforeWrite: () => Promise<void>,
  ): Promise<CreateRefusal | null> {
    const write = async () => {
      const joined = await memberSlots.createWithin(
        creatorId,
        MAX_HOUSEHOLDS_PER_USER,
        () => countMember(creatorId),
        async () => {
          await beforeWrite().catch((err: unknown) => {
            throw new NotWritten(err);
          });
          await households.create(h.householdId, h);
        },
      );
      if (!joined) throw MEMBER_CAP;
    };
    try {
      const made = await createdSlots.createWithin(
        creatorId,
        MAX_HOUSEHOLDS_CREATED_PER_USER,
        () => countCreated(creatorId),
        write,
      );
      return made ? null : 'created-cap';
    } catch (err) {
      if (err === MEMBER_CAP) return 'member-cap';
      throw err instanceof NotWritten ? err.reason : err;
    } finally {
      recent.delete(h.householdId);
    }
  }

  /** Slots of the members `before` had and `after` has not (never throws: see SlotCounter.give). */
  async function giveBackLeft(before: StoredHousehold | null, after: StoredHousehold | null) {
    for (const member of before?.members ?? []) {
      if (after?.memberIds.includes(member.memberId)) continue;
      await memberSlots.give(member.memberId, 1);
      if (before && createdBy(before, member.memberId)) await createdSlots.give(member.memberId, 1);
    }
  }
}

export type HouseholdRepository = ReturnType<typeof createHouseholdRepository>;
