import { ABORT, type Store } from './types.ts';

type Counted = Record<string, unknown>;

/**
 * A count of what one owner (a household) holds in a collection, kept in one document per owner
 * so that a cap holds under concurrent creates: `take` reserves slots atomically, all or none, and
 * `give` returns them when things are deleted. An owner from before the counter is counted once
 * from the collection itself (`countExisting`). `field` names the count in the document, so
 * several counts can share one collection of counter documents.
 */
export function createSlotCounter(store: Store, collection: string, field: string) {
  const counts = store.collection<Counted>(collection);
  const held = (doc: Counted | null) => (doc ? Number(doc[field] ?? 0) : 0);

  /** True when `wanted` slots were taken (the owner then holds at most `cap`); false takes none. */
  async function take(
    key: string,
    wanted: number,
    cap: number,
    countExisting: () => Promise<number>,
  ): Promise<boolean> {
    const existing = await counts.get(key);
    const counted = existing && field in existing ? 0 : await countExisting();
    const { changed } = await counts.update(key, (current) => {
      const now = current && field in current ? held(current) : counted;
      return now + wanted > cap ? ABORT : { ...(current ?? { owner: key }), [field]: now + wanted };
    });
    return changed;
  }

  /** Returns `n` slots (never below zero); an owner with no count yet has nothing to return. */
  async function give(key: string, n: number): Promise<void> {
    if (n <= 0) return;
    await counts.update(key, (current) =>
      current && field in current ? { ...current, [field]: Math.max(0, held(current) - n) } : ABORT,
    );
  }

  /**
   * Runs `create` in `wanted` slots taken first: false (nothing run) when that would pass `cap`;
   * a create that fails gives its slots back.
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
      await give(key, wanted).catch(() => undefined);
      throw err;
    }
    return true;
  }

  return { take, give, createWithin };
}

export type SlotCounter = ReturnType<typeof createSlotCounter>;
