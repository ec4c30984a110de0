import { StoreUnavailableError } from './store-errors.ts';
import { ABORT, type Store } from './types.ts';

type Counted = Record<string, unknown>;

/** How often one process recounts an owner found at the cap (the count it keeps may have drifted). */
const RECOUNT_EVERY_MS = 60_000;
/** Owners whose last recount is remembered; an older one may simply be recounted again. */
const RECOUNTS_KEPT = 10_000;
/**
 * How long a count must have stood still before a recount may lower it: longer than any create
 * can take, so slots taken by creates still under way (a burst at the cap) are never mistaken for
 * drift.
 */
const SETTLED_MS = 30_000;

/**
 * A count of what one owner (a household) holds in a collection, kept in one document per owner
 * so that a cap holds under concurrent creates: `take` reserves slots atomically, all or none, and
 * `give` returns them when things are deleted. An owner from before the counter is counted once
 * from the collection itself (`countExisting`). `field` names the count in the document, so
 * several counts can share one collection of counter documents.
 *
 * The count can drift where a store cannot say what happened (a create that timed out and never
 * landed, a give that failed after its delete): an owner refused at the cap is recounted, at most
 * once a minute per process, and a count that has stood still for SETTLED_MS and is found too high
 * is lowered to the truth. So drift never shuts a family out for long, and nothing is undone on
 * account of an unknown outcome.
 */
export function createSlotCounter(store: Store, collection: string, field: string) {
  const counts = store.collection<Counted>(collection);
  const changedAt = `${field}ChangedAt`;
  const has = (doc: Counted | null): doc is Counted => !!doc && field in doc;
  const held = (doc: Counted | null) => (has(doc) ? Number(doc[field]) : 0);
  const withCount = (key: string, current: Counted | null, n: number): Counted => ({
    ...(current ?? { owner: key }),
    [field]: n,
    [changedAt]: Date.now(),
  });
  const recountedAt = new Map<string, number>();

  async function reserve(key: string, wanted: number, cap: number, countExisting: () => Promise<number>) {
    const existing = await counts.get(key);
    const start = has(existing) ? 0 : await countExisting();
    const { changed } = await counts.update(key, (current) => {
      const now = has(current) ? held(current) : start;
      return now + wanted > cap ? ABORT : withCount(key, current, now + wanted);
    });
    return changed;
  }

  /** Lowers a settled count that drifted above what the collection holds; true when it did. */
  async function recount(key: string, countExisting: () => Promise<number>): Promise<boolean> {
    const last = recountedAt.get(key);
    if (last !== undefined && Date.now() - last < RECOUNT_EVERY_MS) return false;
    recountedAt.delete(key);
    recountedAt.set(key, Date.now());
    if (recountedAt.size > RECOUNTS_KEPT) recountedAt.delete(recountedAt.keys().next().value!);
    const actual = await countExisting();
    const { changed } = await counts.update(key, (current) => {
      if (!has(current) || held(current) <= actual) return ABORT;
      if (Date.now() - Number(current[changedAt] ?? 0) < SETTLED_MS) return ABORT;
      return withCount(key, current, actual);
    });
    return changed;
  }

  /** True when `wanted` slots were taken (the owner then holds at most `cap`); false takes none. */
  async function take(
    key: string,
    wanted: number,
    cap: number,
    countExisting: () => Promise<number>,
  ): Promise<boolean> {
    if (await reserve(key, wanted, cap, countExisting)) return true;
    return (await recount(key, countExisting)) && reserve(key, wanted, cap, countExisting);
  }

  /**
   * Returns `n` slots (never below zero); an owner with no count yet has nothing to return. Never
   * throws: the thing is already gone, and a count left too high is healed at the cap.
   */
  async function give(key: string, n: number): Promise<void> {
    if (n <= 0) return;
    await counts
      .update(key, (current) =>
        has(current) ? withCount(key, current, Math.max(0, held(current) - n)) : ABORT,
      )
      .catch(() => undefined);
  }

  /**
   * Runs `create` in `wanted` slots taken first: false (nothing run) when that would pass `cap`.
   * A create that fails gives its slots back, unless its outcome is unknown (it may still land).
   */
  async function createWithin(
    key: string,
    cap: number,
    countExisting: () => Promise<number>,
    create: () => Promise<unknown>,
    wanted = 1,
  ): Promise<boolean> {
    if (!(await take(key, wanted, cap, countExisting))) return false;
    try {
      await create();
    } catch (err) {
      if (!(err instanceof StoreUnavailableError && err.outcomeUnknown)) await give(key, wanted);
      throw err;
    }
    return true;
  }

  return { take, give, createWithin };
}

export type SlotCounter = ReturnType<typeof createSlotCounter>;
