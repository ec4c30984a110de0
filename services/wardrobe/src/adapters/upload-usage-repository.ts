import { ABORT, type Store } from '@hs/store';
import { grantFor } from '../domain/upload-quota.ts';

type UploadUsage = { householdId: string; bytes: number };

/**
 * The image bytes each household holds, one counter document per household: an upload URL takes
 * its bytes atomically, so a burst of upload URLs can't pass the quota together. A household
 * from before the counter is counted once from its items (`countExisting`).
 */
export function createUploadUsageRepository(store: Store) {
  const usage = store.collection<UploadUsage>('upload_usage');
  const change = (householdId: string, delta: number) =>
    usage.update(householdId, (current) =>
      current ? { householdId, bytes: Math.max(0, current.bytes + delta) } : ABORT,
    );

  return {
    /**
     * Takes up to `wanted` bytes of the household's `quota` (less when less is left) and returns
     * how many it took: 0 (nothing taken) when the quota is used up.
     */
    async reserve(
      householdId: string,
      wanted: number,
      quota: number,
      countExisting: () => Promise<number>,
    ): Promise<number> {
      const counted = (await usage.get(householdId)) ? 0 : await countExisting();
      let granted = 0;
      await usage.update(householdId, (current) => {
        const used = current ? current.bytes : counted;
        granted = grantFor(used, quota, wanted);
        // The first count is kept even when nothing is left, so it is not counted again.
        return granted > 0 || !current ? { householdId, bytes: used + granted } : ABORT;
      });
      return granted;
    },
    /** Gives bytes back (a dropped or deleted image, an upload URL not handed out). */
    async release(householdId: string, bytes: number): Promise<void> {
      if (bytes > 0) await change(householdId, -bytes);
    },
    /** Counts bytes that were not reserved first (an image from before the quota, confirmed now). */
    async add(householdId: string, bytes: number): Promise<void> {
      if (bytes > 0) await change(householdId, bytes);
    },
  };
}

export type UploadUsageRepository = ReturnType<typeof createUploadUsageRepository>;
